#!/usr/bin/env bash
# Installs the real codex CLI (@openai/codex 0.169.0) for the agent tests and benchmarks; see install-agent.sh.
exec bash "$(dirname "${BASH_SOURCE[0]}")/install-agent.sh" codex @openai/codex 0.169.0
