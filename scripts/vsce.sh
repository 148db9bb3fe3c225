#!/usr/bin/env bash
# Runs the pinned @vscode/vsce (tools/vsce/package-lock.json) in the current directory: `scripts/vsce.sh package …`.
# vsce and its ~240 packages are not devDependencies: every `npm ci` would delete and rewrite them, and only packaging
# a vsix needs them. They install once per lockfile into a cache outside the clone (GREENLOOP_TOOLS_CACHE, default
# ~/.cache/greenloop-tools), so CI and later runs reuse them. `scripts/vsce.sh --where` prints the install folder.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOL="$ROOT/tools/vsce"
CACHE="${GREENLOOP_TOOLS_CACHE:-$HOME/.cache/greenloop-tools}"
KEY="$(sha256sum "$TOOL/package-lock.json" | cut -c1-16)"
DIR="$CACHE/vsce-$KEY"

if [ ! -x "$DIR/node_modules/.bin/vsce" ]; then
  mkdir -p "$CACHE"
  # Two installs at once (two e2e workers, a developer and CI) would write over each other.
  exec 9>"$CACHE/.vsce.lock"
  flock 9
  if [ ! -x "$DIR/node_modules/.bin/vsce" ]; then
    echo "[vsce] installing @vscode/vsce from tools/vsce/package-lock.json into $DIR (once) ..." >&2
    rm -rf "$DIR.partial" && mkdir -p "$DIR.partial"
    cp "$TOOL/package.json" "$TOOL/package-lock.json" "$DIR.partial/"
    if ! (cd "$DIR.partial" && npm ci --no-audit --no-fund --loglevel=error >"$CACHE/vsce-install.log" 2>&1); then
      echo "Could not install @vscode/vsce (npm ci in $DIR.partial failed; its output is in $CACHE/vsce-install.log)." >&2
      exit 1
    fi
    rm -rf "$DIR" && mv "$DIR.partial" "$DIR"
  fi
  exec 9>&-
fi

if [ "${1:-}" = "--where" ]; then
  echo "$DIR"
  exit 0
fi
exec "$DIR/node_modules/.bin/vsce" "$@"
