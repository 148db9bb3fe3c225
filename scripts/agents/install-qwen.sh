#!/usr/bin/env bash
# Installs the real qwen CLI (@qwen-code/qwen-code 0.24.4) for the agent tests and benchmarks; see install-agent.sh.
exec bash "$(dirname "${BASH_SOURCE[0]}")/install-agent.sh" qwen @qwen-code/qwen-code 0.24.4
