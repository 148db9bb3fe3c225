#!/usr/bin/env bash
# Prepares the project `npm run bench:testtime` runs the loop on: mathjs (josdejong/mathjs) at a pinned commit, its
# tests and runner (mocha, `npm run test:src`) unmodified, its dependencies from the npm registry at its own lockfile.
# Idempotent; prints the project folder on its last line.
#   GREENLOOP_BENCH_CACHE   where it goes (default ~/.cache/greenloop-bench)
#   GREENLOOP_BENCH_MATHJS  a git repository (or snapshot) holding the commit (default: the mirror fetched here)
set -euo pipefail
COMMIT=f7c10b1bc1324a25d117b668ea9a9c0232e2068e
cache="${GREENLOOP_BENCH_CACHE:-$HOME/.cache/greenloop-bench}"
source_repo="${GREENLOOP_BENCH_MATHJS:-/work/.mirror/josdejong+mathjs/repo}"
pristine="$cache/mathjs-$COMMIT"
mkdir -p "$cache"

if [ ! -f "$cache/mathjs-$COMMIT.ready" ]; then
  if ! git --git-dir="$source_repo" cat-file -e "$COMMIT^{commit}" 2>/dev/null && ! git -C "$source_repo" cat-file -e "$COMMIT^{commit}" 2>/dev/null; then
    echo "mathjs commit $COMMIT is not in $source_repo: fetch josdejong/mathjs and point GREENLOOP_BENCH_MATHJS at it." >&2
    exit 1
  fi
  rm -rf "$pristine"
  git clone -q --no-checkout "$source_repo" "$pristine"
  git -C "$pristine" checkout -q "$COMMIT"
  # Its own lockfile; no install scripts are needed to run the unit tests (and none may download binaries here).
  (cd "$pristine" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) >&2
  touch "$cache/mathjs-$COMMIT.ready"
fi
echo "$pristine"
