#!/usr/bin/env bash
# Installs the toolchains the tests drive for real, by name, where they are missing: Debian's packages (apt-get) and
# the npm checkers (into a cache outside the clone). Idempotent and quick when everything is there; `.ci/run` runs it
# before the README's commands, and a test that needs a tool runs it for that tool (test/unit/support/toolchains.ts),
# so `npm test` on a fresh machine installs what it needs instead of skipping. A tool that cannot be installed ends
# this script with its name and the package it needed: a missing toolchain fails, it is never skipped.
# Usage: scripts/toolchains.sh [tool...]   (default: all of them; `scripts/toolchains.sh --list` names them)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$here/.."
# rustup's cargo and clippy, where the tests look for them too.
export PATH="$HOME/.cargo/bin:$PATH"

# tool → how to tell it is there, and the Debian package that brings it.
declare -A PROBE=(
  [mypy]='command -v mypy'
  [pylint]='command -v pylint'
  [go]='command -v go'
  [gcc]='command -v gcc'
  [cargo]='command -v cargo'
  [clippy]='cargo clippy --version'
  [python3-pytest]='/usr/bin/python3 -c "import pytest"'
  [python3-coverage]='/usr/bin/python3 -c "import coverage"'
  [php]='command -v php'
  [phpunit]='phpunit --version'
)
declare -A PACKAGE=(
  [mypy]=mypy [pylint]=pylint [go]=golang-go [gcc]=gcc [cargo]=cargo [clippy]=rust-clippy
  [python3-pytest]=python3-pytest [python3-coverage]=python3-coverage
  [php]=php-cli [phpunit]=phpunit
)
# The npm checkers, pinned as test/fixtures/regenerate/checkers.sh captured them.
NPM_CHECKERS=(eslint biome oxlint pyright)
ALL=("${!PACKAGE[@]}" "${NPM_CHECKERS[@]}")

if [ "${1:-}" = --list ]; then printf '%s\n' "${ALL[@]}" | sort; exit 0; fi
tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=("${ALL[@]}")

cache="${GREENLOOP_TOOLCHAINS_CACHE:-$HOME/.cache/greenloop-toolchains}"
mkdir -p "$cache"
# Parallel test workers may ask at once: one installs, the others wait and find it done.
exec 9>"$cache/.install.lock"
flock 9

missing=()
npm_needed=0
for tool in "${tools[@]}"; do
  if [[ " ${NPM_CHECKERS[*]} " == *" $tool "* ]]; then
    npm_needed=1
  elif [ -n "${PACKAGE[$tool]:-}" ]; then
    bash -c "${PROBE[$tool]}" >/dev/null 2>&1 || missing+=("${PACKAGE[$tool]}")
  else
    echo "Unknown toolchain \"$tool\"; choose from: $(printf '%s ' "${ALL[@]}")" >&2
    exit 2
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  log="$cache/apt.log"
  echo "[toolchains] installing Debian packages: ${missing[*]}" >&2
  if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
    echo "[toolchains] apt-get could not install ${missing[*]} (see $log); install them and rerun." >&2
    exit 1
  fi
fi
if [ "$npm_needed" = 1 ]; then bash "$root/test/fixtures/regenerate/install-checkers.sh" >&2; fi

# Each tool asked for must answer now: a package that installed without bringing it is named too.
still=()
for tool in "${tools[@]}"; do
  [ -n "${PACKAGE[$tool]:-}" ] || continue
  bash -c "${PROBE[$tool]}" >/dev/null 2>&1 || still+=("$tool (Debian package ${PACKAGE[$tool]})")
done
if [ ${#still[@]} -gt 0 ]; then
  echo "[toolchains] still missing after the install: ${still[*]}" >&2
  exit 1
fi
