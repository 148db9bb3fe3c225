#!/usr/bin/env bash
# `npm run test:e2e`: installs the e2e tools if missing (cached), then runs every test/e2e/**/*.e2e.ts.
# Extra arguments go to mocha, e.g. `npm run test:e2e -- --grep palette`.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bash "$ROOT/scripts/e2e/setup.sh"
cd "$ROOT"
# The spec files run in two mocha workers (each starts its own code-server on a free port; a third made each scenario slower on 2 cores and the run no shorter). They share one package
# of the extension, made here once: two workers packaging at the same time would rebuild dist/ under each other.
if [ -z "${GREENLOOP_E2E_VSIX:-}" ]; then
  VSIX_DIR="$(mktemp -d "${TMPDIR:-/tmp}/greenloop-vsix-XXXXXX")"
  trap 'rm -rf "$VSIX_DIR"' EXIT
  echo "[e2e] packaging the extension once for every spec ..."
  # As a publisher packages it: a warning from vsce (a missing repository, LICENSE, …) fails the e2e run.
  if ! PACKAGED="$(bash scripts/vsce.sh package --no-dependencies --no-rewrite-relative-links --out "$VSIX_DIR/greenloop.vsix" </dev/null 2>&1)" \
    || grep -q WARNING <<<"$PACKAGED"; then
    echo "vsce could not package the extension without a warning:" >&2
    echo "$PACKAGED" >&2
    exit 1
  fi
  export GREENLOOP_E2E_VSIX="$VSIX_DIR/greenloop.vsix"
fi
npx mocha --config test/e2e/.mocharc.js "$@"
