#!/usr/bin/env bash
# Runs line N of the README's first code block: the README's two set-up commands are what CI runs, word for word,
# so they cannot drift from what works (`npm run demo` once named a script package.json did not have).
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:?usage: scripts/readmeCommand.sh N}"
line=$(awk '/^```/{block++; next} block==1' README.md | sed -n "${n}p" | sed 's/[[:space:]]*#.*$//')
[ -n "$line" ] || { echo "README.md has no command on line $n of its first code block." >&2; exit 2; }
echo "== README command $n: $line"
bash -c "set -euo pipefail; $line"
