// A stand-in `mvn` that replays a real capture of test/fixtures/captured/maven/<name> (regenerate/maven.sh): it prints
// the console Maven printed and writes the Surefire reports that run wrote into the working folder, freshly, then exits
// with Maven's code. The verifier then reads a Maven run as it would a real one — the console, the fresh reports beside
// it, none of the stale ones — without paying a JVM's start per run; the real runs are the heavy suite's (javaFix).
import * as fs from 'fs';
import * as path from 'path';
import { ROOT, tempDir } from './cli';

export const MAVEN_CAPTURES = path.join(ROOT, 'test', 'fixtures', 'captured', 'maven');

/** A folder holding `mvn` that replays the named capture; put it first on PATH. */
export function mavenReplay(capture: string): string {
  const bin = tempDir('mvn-replay');
  const dir = path.join(MAVEN_CAPTURES, capture);
  const script = `#!/bin/sh
# Replays ${capture}: its console, its reports (written now), its exit code.
cat '${dir}/console.txt'
if [ -d '${dir}/reports' ]; then
  (cd '${dir}/reports' && find . -name 'TEST-*.xml') | while read -r f; do
    mkdir -p "$(dirname "$f")" && cp '${dir}/reports/'"$f" "$f" && touch "$f"
  done
fi
exit "$(cat '${dir}/exit')"
`;
  fs.writeFileSync(path.join(bin, 'mvn'), script, { mode: 0o755 });
  return bin;
}

export function mavenTruth(capture: string): { reports: number; tests: string[]; failing: string[] } {
  return JSON.parse(fs.readFileSync(path.join(MAVEN_CAPTURES, capture, 'truth.json'), 'utf8'));
}

/**
 * A stand-in `mvn` for a whole fix loop: it replays the capture of the project's state — `bugged` when `file` still
 * holds `bug`, else `fixed` — of a whole run, or of a run narrowed with -Dtest when the command narrows. Only the states
 * the loop can reach are captured; any other command fails loudly.
 */
export function mavenReplayByState(opts: { file: string; bug: string; full: { bugged: string; fixed: string }; narrowed: { bugged: string; fixed: string } }): string {
  const bin = tempDir('mvn-replay');
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const replay = (capture: string) => {
    const dir = path.join(MAVEN_CAPTURES, capture);
    return `cat ${q(`${dir}/console.txt`)}
    if [ -d ${q(`${dir}/reports`)} ]; then (cd ${q(`${dir}/reports`)} && find . -name 'TEST-*.xml') | while read -r f; do mkdir -p "$(dirname "$f")" && cp ${q(`${dir}/reports/`)}"$f" "$f" && touch "$f"; done; fi
    exit "$(cat ${q(`${dir}/exit`)})"`;
  };
  const script = `#!/bin/sh
narrowed=no
for a in "$@"; do case "$a" in -Dtest=*) narrowed=yes;; esac; done
if grep -qF -- ${q(opts.bug)} ${q(opts.file)}; then state=bugged; else state=fixed; fi
case "$narrowed-$state" in
  no-bugged) ${replay(opts.full.bugged)};;
  no-fixed) ${replay(opts.full.fixed)};;
  yes-bugged) ${replay(opts.narrowed.bugged)};;
  yes-fixed) ${replay(opts.narrowed.fixed)};;
esac
`;
  fs.writeFileSync(path.join(bin, 'mvn'), script, { mode: 0o755 });
  return bin;
}
