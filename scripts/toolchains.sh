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
  [cmake]='command -v cmake && command -v ctest'
  [g++]='command -v g++'
  [gtest]='ls /usr/lib/*/cmake/GTest/GTestConfig.cmake || ls /usr/lib/cmake/GTest/GTestConfig.cmake'
  [catch2]='ls /usr/lib/cmake/Catch2/Catch2Config.cmake || ls /usr/lib/*/cmake/Catch2/Catch2Config.cmake'
  # Maven offline against Debian's repository (/etc/maven/settings-debian.xml): the plugin versions the Java fixtures pin.
  [maven]='command -v mvn && command -v javac && test -f /etc/maven/settings-debian.xml && r=/usr/share/maven-repo/org/apache/maven && test -d $r/plugins/maven-surefire-plugin/2.22.3 && test -d $r/surefire/surefire-junit-platform/2.22.3 && test -d $r/plugins/maven-compiler-plugin/3.10.1 && test -d $r/plugins/maven-resources-plugin/3.3.0 && test -d /usr/share/maven-repo/org/junit/jupiter/junit-jupiter-params/5.9.2'
  # Ruby: RSpec, minitest, test-unit and rake (the Ruby rooms' end-to-end tests).
  [ruby-rspec]='command -v rspec'
  [ruby-minitest]='ruby -e "require \"minitest\""'
  [rake]='command -v rake'
  [ruby-rspec-junit-formatter]='ruby -e "require \"rspec_junit_formatter\""'
  # test-unit: the bundled gem of Debian's Ruby 3.1 (libruby3.1); Debian's ruby-test-unit packages it on its own too.
  [ruby-test-unit]='ruby -e "require \"test/unit\"; exit!(0)"'
  [php]='command -v php'
  [phpunit]='phpunit --version'
  # The linters the checker readers are captured from (test/fixtures/regenerate/linters.sh) and the formatters and
  # linters whose fixers run as attempt 0 (fixAutofix.test.ts, formatterFixers.test.ts).
  [clang-tidy]='command -v clang-tidy'
  [clang-format]='command -v clang-format'
  [rubocop]='command -v rubocop'
  [checkstyle]='command -v checkstyle'
  [phpcs]='command -v phpcs && command -v phpcbf'
)
declare -A PACKAGE=(
  [mypy]=mypy [pylint]=pylint [go]=golang-go [gcc]=gcc [cargo]=cargo [clippy]=rust-clippy
  [python3-pytest]=python3-pytest [python3-coverage]=python3-coverage
  [cmake]=cmake [g++]=g++ [gtest]=libgtest-dev [catch2]=catch2
  [maven]='maven openjdk-17-jdk-headless junit5 libsurefire-java maven-debian-helper libmaven-compiler-plugin-java libmaven-resources-plugin-java'
  [ruby-rspec]=ruby-rspec [ruby-minitest]=ruby-minitest [rake]=rake [ruby-rspec-junit-formatter]=ruby-rspec-junit-formatter [ruby-test-unit]=ruby-test-unit
  [php]=php-cli [phpunit]=phpunit
  [clang-tidy]=clang-tidy [clang-format]=clang-format [rubocop]=rubocop [checkstyle]=checkstyle [phpcs]=php-codesniffer
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
    # A tool may need several packages (Maven: the JDK, JUnit 5 and the plugins in Debian's repository).
    read -ra packages <<<"${PACKAGE[$tool]}"
    bash -c "${PROBE[$tool]}" >/dev/null 2>&1 || missing+=("${packages[@]}")
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
  bash -c "${PROBE[$tool]}" >/dev/null 2>&1 || still+=("$tool (Debian packages ${PACKAGE[$tool]})")
done
if [ ${#still[@]} -gt 0 ]; then
  echo "[toolchains] still missing after the install: ${still[*]}" >&2
  exit 1
fi
