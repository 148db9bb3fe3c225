#!/usr/bin/env bash
# The README's main job: build Greenloop and let it fix a copy of examples/cart until its tests pass.
# Uses a real OpenAI-compatible model when GREENLOOP_BASE_URL and GREENLOOP_MODEL are set (key in
# GREENLOOP_API_KEY), else the example's scripted demo model — clearly labelled, answers fixed in advance.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
[ -d node_modules ] || npm ci --no-audit --no-fund
npm run --silent build

work=$(mktemp -d "${TMPDIR:-/tmp}/greenloop-demo.XXXXXX")
cp -R examples/cart "$work/cart"
rm -rf "$work/cart/node_modules"
(cd "$work/cart" && npm ci --no-audit --no-fund --silent)
echo "== A copy of examples/cart is in $work/cart"
echo "== greenloop verify: the witness before the loop"
node dist/cli.js verify --cwd "$work/cart" || true

server_pid=""
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true; }
trap cleanup EXIT
if [ -n "${GREENLOOP_BASE_URL:-}" ] && [ -n "${GREENLOOP_MODEL:-}" ]; then
  echo "== Model: $GREENLOOP_MODEL at $GREENLOOP_BASE_URL"
  actor=(--actor openai --base-url "$GREENLOOP_BASE_URL" --model "$GREENLOOP_MODEL")
  [ -n "${GREENLOOP_API_KEY:-}" ] && actor+=(--api-key-env GREENLOOP_API_KEY)
else
  echo "== Model: the SCRIPTED DEMO MODEL of examples/cart/demo-model.json (fixed answers, not a real model)."
  echo "   Set GREENLOOP_BASE_URL and GREENLOOP_MODEL to use a real OpenAI-compatible model instead."
  node dist/scriptedModelServer.js examples/cart/demo-model.json > "$work/model-url" &
  server_pid=$!
  for _ in $(seq 1 50); do [ -s "$work/model-url" ] && break; sleep 0.1; done
  actor=(--actor openai --base-url "$(head -n1 "$work/model-url")" --model scripted-demo)
fi

echo "== greenloop fix"
status=0
node dist/cli.js fix --cwd "$work/cart" "${actor[@]}" --state-dir "$work/state" --report "$work/report.json" || status=$?
echo "== What changed (diff against examples/cart):"
diff -ru --exclude node_modules examples/cart "$work/cart" || true
echo "== Report: $work/report.json"
exit "$status"
