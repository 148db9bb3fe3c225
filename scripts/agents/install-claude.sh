#!/usr/bin/env bash
# Installs the real claude CLI (@anthropic-ai/claude-code 2.1.330) for the agent tests and benchmarks; see install-agent.sh.
exec bash "$(dirname "${BASH_SOURCE[0]}")/install-agent.sh" claude @anthropic-ai/claude-code 2.1.330
