#!/usr/bin/env bash
# `npm test`: build the bundles the tests run, then the type check and the unit tests side by side. The unit tests
# leave part of the 2 cores idle while they wait on the processes they start; the type check (~20 s of CPU) fills
# that instead of adding to the wall time. Its errors print after the tests, and either failing fails `npm test`.
# Extra arguments go to mocha, e.g. `npm test -- --grep rollback`.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
npm run --silent build || exit $?

TSC_LOG="$(mktemp "${TMPDIR:-/tmp}/greenloop-typecheck-XXXXXX")"
trap 'rm -f "$TSC_LOG"' EXIT
npx tsc --noEmit -p . >"$TSC_LOG" 2>&1 &
TSC_PID=$!

MOCHA_EXIT=0
npx mocha "$@" || MOCHA_EXIT=$?

TSC_EXIT=0
wait "$TSC_PID" || TSC_EXIT=$?
if [ "$TSC_EXIT" -ne 0 ]; then
  echo "The type check (npm run typecheck) failed:" >&2
  cat "$TSC_LOG" >&2
fi
[ "$MOCHA_EXIT" -ne 0 ] && exit "$MOCHA_EXIT"
exit "$TSC_EXIT"
