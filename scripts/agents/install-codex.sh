#!/usr/bin/env bash
# Installs the real OpenAI Codex CLI (@openai/codex) that the agent tests and benchmarks drive, once, into a cache
# outside the repo. Prints the path of the `codex` bin on its last line; progress goes to stderr.
# The npm package is a small Node launcher for a native binary per platform (an optional dependency,
# @openai/codex-<platform>); no install script is needed. An install made by hand in the same folder is accepted.
set -euo pipefail

CODEX_VERSION="0.169.0"
CACHE="${GREENLOOP_AGENTS_CACHE:-$HOME/.cache/greenloop-agents}"
DIR="$CACHE/codex"
STAMP="$DIR/.installed-$CODEX_VERSION"
BIN="$DIR/node_modules/.bin/codex"
PKG_JSON="$DIR/node_modules/@openai/codex/package.json"

mkdir -p "$DIR"
# Two test runs at once would install over each other.
exec 9>"$CACHE/.codex-install.lock"
flock 9

installed_version() { # the version npm put in node_modules, or nothing
  [ -f "$PKG_JSON" ] && node -e 'process.stdout.write(require(process.argv[1]).version)' "$PKG_JSON" 2>/dev/null || true
}

runs() { # the bin starts and says its version (the native binary of this platform is there)
  "$BIN" --version 2>/dev/null | grep -q "^codex-cli $CODEX_VERSION$"
}

# A stamp, or an install made by hand with the right version (the stamp is then written), means nothing to do.
if [ -x "$BIN" ] && [ "$(installed_version)" = "$CODEX_VERSION" ] && { [ -f "$STAMP" ] || runs; }; then
  [ -f "$STAMP" ] || touch "$STAMP"
  echo "[agents] codex $CODEX_VERSION already installed in $DIR" >&2
  echo "$BIN"
  exit 0
fi

echo "[agents] installing @openai/codex@$CODEX_VERSION into $DIR ..." >&2
rm -f "$DIR"/.installed-*
[ -f "$DIR/package.json" ] || echo '{"name":"greenloop-agent-codex","private":true}' >"$DIR/package.json"
# Run from `npm test`, the outer npm's package and lifecycle variables would leak into this install: drop them
# (npm_config_* stay: they are the user's own npm settings, such as a registry mirror).
if ! (for v in $(compgen -e | grep -iE '^npm_(package|lifecycle)_'); do unset "$v"; done &&
      npm install --no-audit --no-fund --save-exact --ignore-scripts --prefix "$DIR" "@openai/codex@$CODEX_VERSION" >"$DIR/install.log" 2>&1); then
  echo "[agents] npm could not install @openai/codex@$CODEX_VERSION; see $DIR/install.log (is the npm registry reachable?), then rerun." >&2
  tail -5 "$DIR/install.log" >&2
  exit 1
fi
if [ ! -x "$BIN" ] || [ "$(installed_version)" != "$CODEX_VERSION" ] || ! runs; then
  echo "[agents] npm finished but $BIN does not run as codex $CODEX_VERSION (no native binary for this platform?); see $DIR/install.log." >&2
  exit 1
fi
touch "$STAMP"
echo "[agents] codex $CODEX_VERSION installed" >&2
echo "$BIN"
