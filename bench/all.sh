#!/usr/bin/env bash
# `npm run bench`: the performance suite, one benchmark after another (never in parallel: each times the machine),
# each printing its figures next to a baseline from the same run. Exits 1 when any target was missed.
set -uo pipefail
cd "$(dirname "$0")/.."
failed=()
for b in bundle overhead snapshot parse hook e2e; do
  echo
  echo "== npm run bench:$b"
  npm run --silent "bench:$b" || failed+=("$b")
done
echo
if [ ${#failed[@]} -gt 0 ]; then
  echo "Targets missed or benchmarks failed: ${failed[*]}"
  exit 1
fi
echo "Every benchmark ran and met its target."
