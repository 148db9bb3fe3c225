// Issue 31, item 2: what coverage of the failing tests costs and where it points, measured. For each runner the
// targeted run of the failing tests (CommandVerifier.verifyTargeted, the run the loop makes before the first prompt)
// runs with and without coverage, alternately, --reps times each; the covered time includes reading and ranking.
// Printed: the baseline (the whole suite, the run coverage is priced against), median ms of each targeted run, the
// covered run's overhead over the plain one, the 30 % rule's verdict (the covered run within 30 % of the baseline's
// time: the loop stops it there) and the rank of the buggy line among the hints.
// Cases: the taxrate fixture under node --test and mocha, a TypeScript copy under mocha + tsx, a go module, pytest under
// coverage.py (where a python has both), and mathjs (6,664 mocha tests, bench/testtime/setup.sh) with catalan's bug.
// Run: npm run bench:coverage [-- --reps N] [-- --no-mathjs] [-- --only WORD] (cases whose name starts with WORD)
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CommandVerifier } from '../src/verify/commandVerifier';
import { coverageAllowanceMs } from '../src/core/loop/coverageRun';
import type { CoverageCollected } from '../src/ports/verifier';
import { BUG_CATALAN } from './testtime/scenarios';
import { preparedMathjs, startWorkspace } from './testtime/workspace';

const ROOT = path.join(__dirname, '..');
const args = process.argv.slice(2);
const reps = Number(args[args.indexOf('--reps') + 1]) > 0 && args.includes('--reps') ? Number(args[args.indexOf('--reps') + 1]) : 3;

interface Case {
  name: string;
  testCommand: string;
  /** Makes the workspace; returns its folder and a cleanup. */
  make(): { cwd: string; dispose(): void } | { skip: string };
  env?: NodeJS.ProcessEnv;
  bug: { file: string; text: string };
}

function fromFiles(files: Record<string, string>, nodeModules = false): { cwd: string; dispose(): void } {
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-bench-coverage-'));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(cwd, rel)), { recursive: true });
    fs.writeFileSync(path.join(cwd, rel), text);
  }
  if (nodeModules) fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(cwd, 'node_modules'));
  return { cwd, dispose: () => fs.rmSync(cwd, { recursive: true, force: true }) };
}

function fixture(name: string): Record<string, string> {
  const dir = path.join(ROOT, 'test', 'fixtures', 'projects', name);
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(p);
      else out[p] = fs.readFileSync(path.join(dir, p), 'utf8');
    }
  };
  walk('');
  return out;
}

const TAX = fixture('taxrate');
const MOCHA_TESTS = {
  'test/price.test.js': "const assert = require('assert');\nconst { total } = require('../lib/price');\ndescribe('price', () => { it('adds the tax', () => { assert.strictEqual(total(100), 120); }); });\n",
  'test/names.test.js': "const assert = require('assert');\nconst { greet } = require('../lib/names');\ndescribe('names', () => { it('greets', () => { assert.strictEqual(greet('a'), 'hello a'); }); });\n",
};
const imports = (python: string, mod: string, env?: NodeJS.ProcessEnv): boolean => {
  try {
    execFileSync(python, ['-c', `import ${mod}`], { stdio: 'ignore', env });
    return true;
  } catch {
    return false;
  }
};
// Debian's coverage.py seen by the python that has pytest (both 3.11), as test/unit/coverage does when no python has both.
const shelf = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-bench-pyshelf-'));
if (fs.existsSync('/usr/lib/python3/dist-packages/coverage')) fs.symlinkSync('/usr/lib/python3/dist-packages/coverage', path.join(shelf, 'coverage'));
const PY_ENV = { ...process.env, PYTHONPATH: shelf };

const CASES: Case[] = [
  { name: 'node --test (taxrate)', testCommand: 'node --test test/', make: () => fromFiles(TAX), bug: { file: 'lib/tax.js', text: 'const rate = 0.25' } },
  { name: 'mocha (taxrate)', testCommand: 'npx mocha test/', make: () => fromFiles({ ...TAX, ...MOCHA_TESTS }, true), bug: { file: 'lib/tax.js', text: 'const rate = 0.25' } },
  {
    name: 'go test (2 packages)', testCommand: 'go test ./...', env: { ...process.env, GOFLAGS: '-count=1' }, bug: { file: 'tax/tax.go', text: 'rate := 0.25' },
    make: () => fromFiles({
      'go.mod': 'module example.com/shop\n\ngo 1.19\n',
      'tax/tax.go': 'package tax\n\nfunc Of(net float64) float64 {\n\trate := 0.25\n\treturn net * rate\n}\n',
      'price/price.go': 'package price\n\nimport "example.com/shop/tax"\n\nfunc Total(net float64) float64 {\n\treturn net + tax.Of(net)\n}\n',
      'price/price_test.go': 'package price\n\nimport "testing"\n\nfunc TestTotal(t *testing.T) {\n\tif Total(100) != 120 {\n\t\tt.Fatal("total")\n\t}\n}\n',
    }),
  },
  {
    name: 'pytest + coverage.py', testCommand: 'python3 -m pytest', env: PY_ENV, bug: { file: 'shop/tax.py', text: 'rate = 0.25' },
    make: () => (imports('python3', 'pytest', PY_ENV) && imports('python3', 'coverage', PY_ENV)
      ? fromFiles({
        'shop/__init__.py': '', 'shop/tax.py': 'def of(net):\n    rate = 0.25\n    return net * rate\n',
        'shop/price.py': 'from shop import tax\n\n\ndef total(net):\n    return net + tax.of(net)\n',
        'tests/test_price.py': 'from shop.price import total\n\n\ndef test_total():\n    assert total(100) == 120\n',
      })
      : { skip: 'no python here imports both pytest and coverage.py' }),
  },
];
if (!args.includes('--no-mathjs')) {
  CASES.push({
    name: 'mathjs (mocha, catalan: n + 2)', testCommand: 'npx mocha test/unit-tests', bug: { file: BUG_CATALAN.file, text: BUG_CATALAN.replace },
    make: () => {
      const ws = startWorkspace(preparedMathjs(), { key: 'cov', name: 'coverage', start: [BUG_CATALAN], answers: [], expected: { outcome: 'green', failing: 0 } } as never, 'coverage');
      return { cwd: ws.cwd, dispose: ws.dispose };
    },
  });
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(c: Case): Promise<string> {
  const ws = c.make();
  if ('skip' in ws) return `| ${c.name} | skipped: ${ws.skip} | | | | | |`;
  try {
    const verifier = new CommandVerifier({ cwd: ws.cwd, testCommand: c.testCommand, tsc: 'off', timeoutMs: 1_200_000, env: { ...(c.env ?? process.env), NO_COLOR: '1', CI: '1' } });
    const t0 = Date.now();
    const full = await verifier.verify();
    const baselineMs = full.testDurationMs ?? Date.now() - t0;
    if (!full.failing.length) return `| ${c.name} | no failing test: nothing to measure | | | | | | |`;
    const plain: number[] = [];
    const covered: number[] = [];
    let last: CoverageCollected | undefined;
    for (let i = 0; i < reps; i++) {
      // Alternated, covered first: a cold cache would count against coverage, never for it.
      let t = Date.now();
      const run = await verifier.verifyTargeted(full.failures, undefined, { coverage: true });
      covered.push(Date.now() - t);
      if (!run.ok) return `| ${c.name} | cannot narrow: ${run.why} | | | | | |`;
      last = run.coverage;
      t = Date.now();
      await verifier.verifyTargeted(full.failures);
      plain.push(Date.now() - t);
    }
    const [p, cv] = [median(plain), median(covered)];
    const used = cv <= coverageAllowanceMs(baselineMs);
    let rank = '—';
    if (last?.ok) {
      const line = fs.readFileSync(path.join(ws.cwd, c.bug.file), 'utf8').split('\n').findIndex((l) => l.includes(c.bug.text)) + 1;
      const at = last.hints.findIndex((h) => h.path === c.bug.file && h.line === line);
      const files = new Set(last.hints.map((h) => h.path)).size;
      rank = at >= 0 ? `${at + 1} of ${last.hints.length} lines (${files} files)` : `not among ${last.hints.length}`;
    } else if (last) rank = `none: ${last.why}`;
    return `| ${c.name} | ${baselineMs} | ${p} | ${cv} | ${(cv / p).toFixed(2)} | ${Math.round((100 * cv) / baselineMs)} %: ${used ? 'used' : 'skipped'} | ${rank} |`;
  } finally {
    ws.dispose();
  }
}

async function main(): Promise<void> {
  console.log(`coverage of the failing tests: the targeted run with and without it, median of ${reps} each, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}`);
  console.log('| case | baseline ms | plain ms | covered ms | covered / plain | covered / baseline, ≤ 30 % rule | buggy line among the hints |');
  console.log('|---|---|---|---|---|---|---|');
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : '';
  for (const c of CASES.filter((k) => k.name.startsWith(only))) console.log(await measure(c));
  fs.rmSync(shelf, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(`bench:coverage: ${(err as Error).message}`);
  process.exit(1);
});
