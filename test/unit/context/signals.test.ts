// Each signal of issue 40 alone, on a small real project run through the real gathering code: a bug only the spectrum
// finds (a passing test of the same file covers the entry point), one only a method-call edge reaches (a chain of
// `this.m()` calls deeper than a fixed number of hops), one only the failure's own words point to (a method reached
// by run-time dispatch whose name the failing input says). Each bug line is unique, and none is in the first prompt
// of the code before issue 40.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { execFileSync } from 'child_process';
import { contextProject } from './contextProject';
import { DEFAULT_LOOP_CONFIG } from '../../../src/session/loopDefaults';
import type { RunState } from '../../../src/ports/runState';
import { LoopEngine } from '../../../src/core/loop/engine';
import type { Actor, ActorRequest, ActorResponse } from '../../../src/ports/actor';
import type { Verifier } from '../../../src/ports/verifier';
import { systemClock } from '../../../src/base/systemClock';
import { CommandVerifier } from '../../../src/verify/commandVerifier';
import { openSnapshotStore } from '../../../src/snapshot/gitSnapshotStore';
import { createRedactor } from '../../../src/base/redact';
import { toReport } from '../../../src/core/run/report';

describe('each signal alone finds its bug (issue 40)', function () {
  this.timeout(120_000);
  const project = contextProject('greenloop-signals-');
  const { write, policy, reader, stateWith } = project;

  const firstPrompt = (state: RunState) => project.firstPrompt(state);

  /** Methods nothing the failing test reaches calls: they make the file too big to be shown whole. */
  const fillerMethods = (n: number, indent: string, make: (i: number) => string) => Array.from({ length: n }, (_, i) => make(i).split('\n').map((l) => indent + l).join('\n')).join('\n\n');

  it('a method-call edge: the bug five `this.` calls below the method the test calls, in a 1,000-line class', async () => {
    write('lib/loader.js', [
      'class Loader {',
      '  constructor(text) {',
      '    this.text = text;',
      '  }',
      '',
      '  load() {',
      '    return this.loadDocuments();',
      '  }',
      '',
      '  loadDocuments() {',
      '    return [this.readDocument()];',
      '  }',
      '',
      '  readDocument() {',
      '    return this.composeNode();',
      '  }',
      '',
      '  composeNode() {',
      '    return this.readScalar();',
      '  }',
      '',
      '  readScalar() {',
      '    return this.scalarWidth();',
      '  }',
      '',
      '  scalarWidth() {',
      '    return this.text.trim().length - 1;',
      '  }',
      '',
      fillerMethods(80, '  ', (i) => `pad${i}(input) {\n  const out = String(input).padStart(${i + 4}, "~");\n  return out.slice(0, ${i + 2}).toUpperCase();\n}`),
      '}',
      '',
      'module.exports = { Loader };',
      '',
    ].join('\n'));
    write('test/loader.test.js', "const test = require('node:test');\nconst assert = require('assert');\nconst { Loader } = require('../lib/loader');\n\ntest('loads one document', () => {\n  assert.deepStrictEqual(new Loader(' abc ').load(), [3]);\n});\n");
    const state = stateWith([{ id: 'loads one document', file: 'test/loader.test.js', message: 'AssertionError: Expected values to be strictly deep-equal:\n[2] !== [3]\n    at TestContext.<anonymous> (test/loader.test.js:6:10)' }]);
    const prompt = await firstPrompt(state);
    assert.ok(prompt.includes('    return this.text.trim().length - 1;'), `the bug line, five method calls down:\n${prompt}`);
  });

  it("the failure's own words: a method reached through getattr, named by the failing input", async () => {
    write('sqlgen/__init__.py', '');
    write('sqlgen/generator.py', [
      'class Generator:',
      '    def generate(self, expression):',
      '        kind = expression.split()[0].lower()',
      '        return getattr(self, f"{kind}_sql")(expression)',
      '',
      fillerMethods(60, '    ', (i) => `def keyword${i}_sql(self, expression):\n    parts = expression.split()\n    return " ".join(parts[${i % 3}:]).upper() + "${i}"`),
      '',
      '    def between_sql(self, expression):',
      '        words = expression.split()',
      '        symmetric = "SYMMETRIC" in words[:1]',
      '        low, high = words[-3], words[-1]',
      '        return f"BETWEEN {\'SYMMETRIC \' if symmetric else \'\'}{low} AND {high}"',
      '',
    ].join('\n'));
    write('tests/test_generator.py', 'from sqlgen.generator import Generator\n\n\ndef test_between_symmetric():\n    assert Generator().generate("BETWEEN SYMMETRIC 1 AND 2") == "BETWEEN SYMMETRIC 1 AND 2"\n');
    const message = "AssertionError: assert 'BETWEEN 1 AND 2' == 'BETWEEN SYMMETRIC 1 AND 2'\n  - BETWEEN SYMMETRIC 1 AND 2\n  + BETWEEN 1 AND 2\ntests/test_generator.py:5: AssertionError";
    const state = stateWith([{ id: 'tests/test_generator.py::test_between_symmetric', file: 'tests/test_generator.py', message }]);
    const prompt = await firstPrompt(state);
    assert.ok(prompt.includes('        symmetric = "SYMMETRIC" in words[:1]'), `the bug line, in the method the failure names:\n${prompt}`);
  });

  it("a typed call: `v.Compare(o)` where `v := NewVersion(…)` finds Version's Compare among eight types' Compare methods", async () => {
    write('go.mod', 'module example.com/semver\n\ngo 1.21\n');
    const others = Array.from({ length: 8 }, (_, i) => `type Other${i} struct{ n int }\n\nfunc (o Other${i}) Compare(p Other${i}) int {\n\treturn o.n - p.n + ${i}\n}\n`).join('\n');
    write('version.go', `package semver\n\n${others}\ntype Version struct{ major, minor int }\n\nfunc NewVersion(major, minor int) Version {\n\treturn Version{major, minor}\n}\n\nfunc (v Version) Compare(o Version) int {\n\tif v.major != o.major {\n\t\treturn v.major - o.major\n\t}\n\treturn o.minor - v.minor\n}\n${Array.from({ length: 150 }, (_, i) => `\nfunc Pad${i}(s string) string {\n\treturn s + "${'~'.repeat(i % 7)}"\n}\n`).join('')}`);
    write('version_test.go', 'package semver\n\nimport "testing"\n\nfunc TestCompare(t *testing.T) {\n\tv := NewVersion(1, 2)\n\tif v.Compare(NewVersion(1, 3)) >= 0 {\n\t\tt.Errorf("1.2 is not below 1.3")\n\t}\n}\n');
    const state = stateWith([{ id: 'TestCompare', file: 'version_test.go', message: 'version_test.go:8: 1.2 is not below 1.3' }]);
    const prompt = await firstPrompt(state);
    assert.ok(prompt.includes('\treturn o.minor - v.minor'), `Version's Compare:\n${prompt}`);
  });

  it('a doctest failing "(line N)": the item its doc comment documents', async () => {
    const pads = Array.from({ length: 60 }, (_, i) => `    pub fn pad${i}(&self) -> String {\n        format!("{}{}", self.major, "${'~'.repeat(i % 9)}")\n    }\n`).join('\n');
    write('Cargo.toml', '[package]\nname = "ver"\nversion = "0.1.0"\nedition = "2021"\n');
    write('src/lib.rs', `pub struct Version { pub major: u64 }\n\nimpl Version {\n${pads}\n    /// The next major version.\n    ///\n    /// \`\`\`\n    /// assert_eq!(ver::Version { major: 1 }.bump().major, 2);\n    /// \`\`\`\n    pub fn bump(&self) -> Version {\n        Version { major: self.major + 2 }\n    }\n}\n`);
    const line = fs.readFileSync(path.join(project.root, 'src/lib.rs'), 'utf8').split('\n').findIndex((l) => l.includes('assert_eq!(ver::Version')) + 1;
    const state = stateWith([{ id: `src/lib.rs - Version::bump (line ${line - 1})`, message: 'assertion `left == right` failed\n  left: 3\n right: 2' }]);
    const prompt = await firstPrompt(state);
    assert.ok(prompt.includes('        Version { major: self.major + 2 }'), `the documented function:\n${prompt}`);
  });

  it('code before test bodies: of three failing tests of one file, one body whole, the others by their assertion lines', async () => {
    write('lib/sum.js', 'function sum(xs) {\n  return xs.reduce((a, b) => a + b, 1);\n}\nmodule.exports = { sum };\n');
    const body = (name: string, n: number) => `test('${name}', () => {\n  const xs = [];\n${Array.from({ length: 30 }, (_, i) => `  xs.push(${i * n}); // setting up ${name}`).join('\n')}\n  assert.strictEqual(sum(xs), ${n * 435});\n});\n`;
    write('test/sum.test.js', `const test = require('node:test');\nconst assert = require('assert');\nconst { sum } = require('../lib/sum');\n\n${body('one', 1)}\n${body('two', 2)}\n${body('three', 3)}`);
    const lines = fs.readFileSync(path.join(project.root, 'test/sum.test.js'), 'utf8').split('\n');
    const at = (text: string) => lines.findIndex((l) => l.includes(text)) + 1;
    const failures = ['one', 'two', 'three'].map((n, i) => ({ id: n, file: 'test/sum.test.js', message: `AssertionError: wrong\n    at TestContext.<anonymous> (test/sum.test.js:${at(`assert.strictEqual(sum(xs), ${(i + 1) * 435})`)}:10)` }));
    const prompt = await firstPrompt(stateWith(failures));
    assert.ok(prompt.includes('  xs.push(29); // setting up one'), 'the first body whole');
    assert.ok(!prompt.includes('// setting up two') && !prompt.includes('// setting up three'), 'not the other bodies');
    assert.ok(prompt.includes('  assert.strictEqual(sum(xs), 870);') && prompt.includes('  assert.strictEqual(sum(xs), 1305);'), 'their assertions');
    assert.ok(prompt.includes('  return xs.reduce((a, b) => a + b, 1);'), 'and the code');
  });

  describe('the spectrum (real node --test, the baseline given as 1 s)', () => {
    class NoEdit implements Actor {
      readonly label = 'scripted';
      readonly prompts: string[] = [];
      async propose(req: ActorRequest): Promise<ActorResponse> {
        this.prompts.push(req.prompt);
        return { kind: 'text', text: 'I have no edit.', usage: { prompt: 10, completion: 5 } };
      }
    }

    it('the bug in a function reached by a computed name, found because passing tests of the same file run the entry point too', async () => {
      const tiers = Array.from({ length: 60 }, (_, i) => `function tier${i}Rate(base) {\n  const factor = ${(1 + i / 100).toFixed(2)};\n  return Math.round(base * factor * ${i === 7 ? '0.91' : '1'});\n}\n`).join('\n');
      write('package.json', '{ "name": "tiers", "private": true, "scripts": { "test": "node --test test/" } }\n');
      write('lib/price.js', `${tiers}\nfunction price(customer) {\n  return module.exports[\`tier\${customer.tier}Rate\`](customer.base);\n}\n\nmodule.exports = { price };\n${Array.from({ length: 60 }, (_, i) => `module.exports.tier${i}Rate = tier${i}Rate;`).join('\n')}\n`);
      write('test/price.test.js', [
        "const test = require('node:test');",
        "const assert = require('assert');",
        "const { price } = require('../lib/price');",
        '',
        "test('charges the first customer', () => {",
        '  assert.strictEqual(price({ tier: 7, base: 100 }), 107);',
        '});',
        '',
        "test('bills a regular', () => {",
        '  assert.strictEqual(price({ tier: 3, base: 100 }), 103);',
        '});',
        '',
        "test('bills a newcomer', () => {",
        '  assert.strictEqual(price({ tier: 5, base: 100 }), 105);',
        '});',
        '',
      ].join('\n'));
      const git = (...a: string[]) => execFileSync('git', a, { cwd: project.root, stdio: 'pipe' });
      git('init', '-q');
      git('add', '-A');
      git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'fixture');
      const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-signals-state-'));
      try {
        // A floor no busy machine reaches: the spectrum's covered runs finish here however slow CI is.
        const config = { ...DEFAULT_LOOP_CONFIG, maxIterations: 1, coverageFloorMs: 600_000 };
        const snapshots = await openSnapshotStore({ workspace: project.root, stateDir, excludes: config.snapshotExcludes });
        const inner = new CommandVerifier({ cwd: project.root, testCommand: 'node --test test/', tsc: 'off', timeoutMs: 60_000 });
        const verifier: Verifier = {
          verify: async (...args: Parameters<CommandVerifier['verify']>) => ({ ...(await inner.verify(...args)), testDurationMs: 1000 }),
          rerun: inner.rerun.bind(inner),
          verifyTargeted: inner.verifyTargeted.bind(inner),
        };
        const actor = new NoEdit();
        const e = new LoopEngine({ cwd: project.root, actor, verifier, snapshots, clock: systemClock, config, redactor: createRedactor([]) });
        const state = await e.run(new AbortController().signal);
        const report = toReport(state, createRedactor([]));
        assert.strictEqual(report.coverage?.used, true, report.coverage?.why);
        assert.strictEqual(report.coverage?.ranking, 'ochiai', report.coverage?.why);
        assert.strictEqual(report.coverage?.passingTests, 2, 'the two passing tests of the file ran covered');
        assert.ok(actor.prompts[0]?.includes('  return Math.round(base * factor * 0.91);'), `the bug line in the first prompt:\n${actor.prompts[0]}`);
      } finally {
        fs.rmSync(stateDir, { recursive: true, force: true });
      }
    });
  });
});
