#!/usr/bin/env bash
# Installs one real agent CLI from npm that the agent tests and benchmarks drive, once, into a cache outside the repo:
#   install-agent.sh NAME PACKAGE VERSION     (NAME is also the bin: qwen, claude, codex)
# Prints the path of the bin on its last line; progress goes to stderr. The dependencies' install scripts are skipped
# (the CLIs that ship a native binary get it as a per-platform dependency); the CLI's own postinstall runs, as claude's
# copies that binary over a placeholder bin. Some packages ask for Node 22 but run on Node 20: npm's EBADENGINE
# warning is expected.
set -euo pipefail

NAME="$1"; PACKAGE="$2"; VERSION="$3"
CACHE="${GREENLOOP_AGENTS_CACHE:-$HOME/.cache/greenloop-agents}"
DIR="$CACHE/$NAME"
STAMP="$DIR/.installed-$VERSION"
BIN="$DIR/node_modules/.bin/$NAME"
PKG_JSON="$DIR/node_modules/$PACKAGE/package.json"

mkdir -p "$DIR"
# Two test runs at once would install over each other.
exec 9>"$CACHE/.$NAME-install.lock"
flock 9

installed_version() { # the version npm put in node_modules, or nothing
  [ -f "$PKG_JSON" ] && node -e 'process.stdout.write(require(process.argv[1]).version)' "$PKG_JSON" 2>/dev/null || true
}

runs() { # the bin starts and names its version (a native binary for this platform is there)
  "$BIN" --version 2>/dev/null | grep -qF "$VERSION"
}

# A stamp, or an install made by hand with the right version that runs (the stamp is then written): nothing to do.
if [ -x "$BIN" ] && [ "$(installed_version)" = "$VERSION" ] && { [ -f "$STAMP" ] || runs; }; then
  [ -f "$STAMP" ] || touch "$STAMP"
  echo "[agents] $NAME $VERSION already installed in $DIR" >&2
  echo "$BIN"
  exit 0
fi

echo "[agents] installing $PACKAGE@$VERSION into $DIR ..." >&2
rm -f "$DIR"/.installed-*
[ -f "$DIR/package.json" ] || echo "{\"name\":\"greenloop-agent-$NAME\",\"private\":true}" >"$DIR/package.json"
# Run from `npm test`, the outer npm's package and lifecycle variables would leak into this install: drop them
# (npm_config_* stay: they are the user's own npm settings, such as a registry mirror).
if ! (for v in $(compgen -e | grep -iE '^npm_(package|lifecycle)_'); do unset "$v"; done &&
      npm install --no-audit --no-fund --save-exact --ignore-scripts --prefix "$DIR" "$PACKAGE@$VERSION" >"$DIR/install.log" 2>&1); then
  echo "[agents] npm could not install $PACKAGE@$VERSION; see $DIR/install.log (is the npm registry reachable?), then rerun." >&2
  tail -5 "$DIR/install.log" >&2
  exit 1
fi
# npm 11 skips every dependency's install scripts unless allowed, older npm runs them all; either way run this one.
if node -e 'process.exit(require(process.argv[1]).scripts?.postinstall ? 0 : 1)' "$PKG_JSON" 2>/dev/null; then
  if ! (cd "$DIR/node_modules/$PACKAGE" && for v in $(compgen -e | grep -iE '^npm_(package|lifecycle)_'); do unset "$v"; done &&
        npm run postinstall) >>"$DIR/install.log" 2>&1; then
    echo "[agents] the postinstall of $PACKAGE@$VERSION failed; see $DIR/install.log." >&2
    exit 1
  fi
fi
if [ ! -x "$BIN" ] || [ "$(installed_version)" != "$VERSION" ] || ! runs; then
  echo "[agents] npm finished but $BIN does not run as $NAME $VERSION (no native binary for this platform?); see $DIR/install.log." >&2
  exit 1
fi
touch "$STAMP"
echo "[agents] $NAME $VERSION installed in $DIR" >&2
echo "$BIN"
