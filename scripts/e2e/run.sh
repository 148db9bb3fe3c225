#!/usr/bin/env bash
# `npm run test:e2e`: installs the e2e tools if missing (cached), then runs every test/e2e/**/*.e2e.ts.
# Extra arguments go to mocha, e.g. `npm run test:e2e -- --grep palette`.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bash "$ROOT/scripts/e2e/setup.sh"
cd "$ROOT"
exec npx mocha --config test/e2e/.mocharc.json "$@"
