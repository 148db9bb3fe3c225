#!/usr/bin/env bash
# Installs the real qwen agent CLI (@qwen-code/qwen-code) that the agent tests and benchmarks drive, once, into a
# cache outside the repo. Prints the path of the `qwen` bin on its last line; progress goes to stderr.
# qwen's package.json asks for Node 22, but it runs on Node 20: npm's EBADENGINE warning is expected.
set -euo pipefail

QWEN_VERSION="0.24.4"
CACHE="${GREENLOOP_AGENTS_CACHE:-$HOME/.cache/greenloop-agents}"
DIR="$CACHE/qwen"
STAMP="$DIR/.installed-$QWEN_VERSION"
BIN="$DIR/node_modules/.bin/qwen"
PKG_JSON="$DIR/node_modules/@qwen-code/qwen-code/package.json"

mkdir -p "$DIR"
# Two test runs at once would install over each other.
exec 9>"$CACHE/.qwen-install.lock"
flock 9

installed_version() { # the version npm put in node_modules, or nothing
  [ -f "$PKG_JSON" ] && node -e 'process.stdout.write(require(process.argv[1]).version)' "$PKG_JSON" 2>/dev/null || true
}

# A stamp, or an install made by hand with the right version (the stamp is then written), means nothing to do.
if [ -x "$BIN" ] && [ "$(installed_version)" = "$QWEN_VERSION" ]; then
  [ -f "$STAMP" ] || touch "$STAMP"
  echo "[agents] qwen $QWEN_VERSION already installed in $DIR" >&2
  echo "$BIN"
  exit 0
fi

echo "[agents] installing @qwen-code/qwen-code@$QWEN_VERSION into $DIR ..." >&2
rm -f "$DIR"/.installed-*
[ -f "$DIR/package.json" ] || echo '{"name":"greenloop-agent-qwen","private":true}' >"$DIR/package.json"
# Run from `npm test`, the outer npm's package and lifecycle variables would leak into this install: drop them
# (npm_config_* stay: they are the user's own npm settings, such as a registry mirror).
if ! (for v in $(compgen -e | grep -iE '^npm_(package|lifecycle)_'); do unset "$v"; done &&
      npm install --no-audit --no-fund --save-exact --prefix "$DIR" "@qwen-code/qwen-code@$QWEN_VERSION" >"$DIR/install.log" 2>&1); then
  echo "[agents] npm could not install @qwen-code/qwen-code@$QWEN_VERSION; see $DIR/install.log (is the npm registry reachable?), then rerun." >&2
  tail -5 "$DIR/install.log" >&2
  exit 1
fi
if [ ! -x "$BIN" ] || [ "$(installed_version)" != "$QWEN_VERSION" ]; then
  echo "[agents] npm finished but $BIN is not qwen $QWEN_VERSION; see $DIR/install.log." >&2
  exit 1
fi
touch "$STAMP"
echo "[agents] qwen $QWEN_VERSION installed" >&2
echo "$BIN"
