// The prompt's code context on real files with the real tree-sitter reader: the function a stack frame names, deep
// in a big file, within the token budget; the failing test's own body; what did not fit named; a window of lines for
// a file no grammar reads (never the file's head); and a SEARCH block copied from what is shown applies.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { gatherContext } from '../../../../src/core/prompt/gatherContext';
import type { GatheredContext } from '../../../../src/core/prompt/gatherContext';
import { buildPrompt, DEFAULT_PROMPT_OPTIONS } from '../../../../src/core/prompt/prompt';
import { codeSection } from '../../../../src/core/prompt/codeSection';
import { isProtected, makePathPolicy } from '../../../../src/core/edits/pathPolicy';
import { applyEditBlocks } from '../../../../src/core/edits/applyBlocks';
import { parseEditBlocks } from '../../../../src/core/edits/parseBlocks';
import { estimateTokens } from '../../../../src/base/estimateTokens';
import { createCodeReader } from '../../../../src/context/codeReader';
import { DEFAULT_LOOP_CONFIG } from '../../../../src/session/loopDefaults';
import { DEFAULT_PROTECTED_GLOBS } from '../../../../src/session/protectedGlobs';
import type { RunState, WitnessSummary } from '../../../../src/ports/runState';
import { bigSource } from '../../context/bigSource';
import { importReach } from '../../../../src/context/imports/reach';
import { checkReadable } from '../../../../src/core/edits/pathPolicy';

describe('the code context: ranked regions within a token budget', () => {
  let root: string;
  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-codectx-')));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  const policy = () => makePathPolicy({ root, protectedGlobs: DEFAULT_PROTECTED_GLOBS, allowTestEdits: false, excludes: [] });

  function stateWith(failures: WitnessSummary['failures']): RunState {
    const witness = { failing: failures.map((f) => f.id), failures, diagnostics: [], loadError: false, green: false, signature: 's', exitCode: 1, timedOut: false, outputExcerpt: '' };
    return {
      cwd: root, config: DEFAULT_LOOP_CONFIG, iterations: [], hints: [], grants: [], tokens: { prompt: 0, completion: 0 },
      limits: { maxIterations: 8, maxTokens: 0, maxMinutes: 0 }, startedAt: 0, elapsedBeforeMs: 0, feedback: '',
      current: { snapshot: 's', tree: 't', witness },
    } as unknown as RunState;
  }

  async function gather(state: RunState, budgetTokens = 6000, reader = createCodeReader({ cwd: root })): Promise<{ context: GatheredContext; prompt: string; section: string }> {
    const p = policy();
    const context = await gatherContext({ state, policy: p, reader, budgetTokens, isProtected: (rel) => isProtected(p, rel), unrecorded: async () => [] });
    const prompt = buildPrompt(state, 0, { ...DEFAULT_PROMPT_OPTIONS, isProtected: (rel) => isProtected(p, rel), allowTestEdits: false, context });
    return { context, prompt, section: codeSection(context, (rel) => isProtected(p, rel)) ?? '' };
  }

  const TEST = [
    "const assert = require('assert');",
    "const { Command } = require('../lib/command');",
    '',
    'function fiveArgs() { return [1, 2, 3, 4, 5]; }',
    '',
    "describe('parse90', () => {",
    "  it('keeps four', () => {",
    '    assert.equal(new Command().parse90(fiveArgs()).length, 4);',
    '  });',
    ...Array.from({ length: 40 }, (_, i) => [`  it('other ${i}', () => {`, `    assert.equal(new Command().parse${i}([]).length, 0);`, '  });']).flat(),
    '});',
    '',
  ].join('\n');

  function bugAtLine1550(): { state: RunState; big: ReturnType<typeof bigSource> } {
    const big = bigSource();
    write('lib/command.js', big.text);
    write('test/command.test.js', TEST);
    const message = `AssertionError: 3 == 4\n    at Context.<anonymous> (test/command.test.js:8:12)\n    at Command.parse90 (lib/command.js:${big.bugLine}:5)`;
    return { state: stateWith([{ id: 'parse90 > keeps four', file: 'test/command.test.js', message }]), big };
  }

  it('a bug at line ~1,550 of an 86 KB file: its whole function is shown, the prompt\'s code within the budget', async () => {
    const { state, big } = bugAtLine1550();
    const { context, prompt, section } = await gather(state);
    const fnText = big.text.split('\n').slice(big.fn.start - 1, big.fn.end).join('\n');
    assert.ok(prompt.includes(`\`\`\`\n${fnText}\n\`\`\``), 'the whole function, fenced, as on disk');
    assert.ok(!prompt.includes('const limit = 0;'), 'not the head of the file');
    assert.match(prompt, /lib\/command\.js \(1,712 lines; shown: 2-3, 1536-1551 parse90\)/);
    assert.match(prompt, /⋮ \(lines 4-1535 left out\)/);
    assert.ok(estimateTokens(section) <= 6000, `${estimateTokens(section)} tokens`);
    assert.ok(context.tokens <= 6000);
    assert.deepStrictEqual(context.left, []);
  });

  it('the failing test contributes its own it() body and the helper it calls, not its 40 other tests', async () => {
    const { state } = bugAtLine1550();
    const { context, prompt } = await gather(state);
    const testFile = context.files.find((f) => f.path === 'test/command.test.js')!;
    assert.deepStrictEqual(testFile.regions.map((r) => `${r.kind} ${r.startLine}-${r.endLine}`), ['imports 1-2', 'function 4-4', 'test 7-9']);
    assert.match(prompt, /test\/command\.test\.js \(protected test file: read only; /);
    assert.ok(!prompt.includes("it('other 3'"), 'another test of the file');
  });

  it('a SEARCH block copied from a shown region applies (whole lines, no line numbers)', async () => {
    const { state, big } = bugAtLine1550();
    const { prompt } = await gather(state);
    const shown = prompt.split('\n');
    const at = shown.findIndex((l) => l.includes('const limit = 3;'));
    const search = shown.slice(at, at + 2).join('\n');
    const answer = `lib/command.js\n\`\`\`\n<<<<<<< SEARCH\n${search}\n=======\n${search.replace('const limit = 3;', 'const limit = 4;')}\n>>>>>>> REPLACE\n\`\`\`\n`;
    const result = await applyEditBlocks(root, parseEditBlocks(answer).blocks, policy());
    assert.ok(result.ok, JSON.stringify(result));
    assert.strictEqual(fs.readFileSync(path.join(root, 'lib/command.js'), 'utf8').split('\n')[big.bugLine - 1], '    const limit = 4; // the bug: should be 4');
  });

  it('no frame in the library (an assertion in the test): the big file the test requires shows the method the test calls', async () => {
    const { big } = bugAtLine1550();
    const state = stateWith([{ id: 'parse90 > keeps four', file: 'test/command.test.js', message: 'AssertionError: 3 == 4\n    at Context.<anonymous> (test/command.test.js:8:12)' }]);
    const { context, prompt } = await gather(state);
    const lib = context.files.find((f) => f.path === 'lib/command.js');
    assert.deepStrictEqual(lib?.regions.map((r) => `${r.kind} ${r.name ?? ''} ${r.startLine}-${r.endLine}`), ['imports  2-3', `function parse90 ${big.fn.start}-${big.fn.end}`]);
    assert.ok(prompt.includes('const limit = 3; // the bug') && !prompt.includes('const limit = 0;'));
  });

  it('a big file the test reaches but calls nothing of: its exported signatures in the map, named as not shown', async () => {
    const { state } = bugAtLine1550();
    const util = Array.from({ length: 120 }, (_, i) => `function util${i}(a, b) {\n  return [a, b, ${i}].map((x) => String(x).padStart(8, '0')).join('-');\n}\n`).join('\n');
    write('lib/util.js', `'use strict';\n${util}\nfunction _private() {}\nmodule.exports = { util0, util1, util2 };\n`);
    write('test/command.test.js', `require('../lib/util');\n${TEST}`);
    state.current.witness.failures[0]!.message = 'AssertionError: 3 == 4\n    at Context.<anonymous> (test/command.test.js:9:12)';
    const { context, prompt } = await gather(state);
    assert.deepStrictEqual(context.map.find((m) => m.path === 'lib/util.js')?.lines, ['function util0(a, b)', 'function util1(a, b)', 'function util2(a, b)']);
    assert.match(prompt, /### What the other files the failing tests reach define\nlib\/util\.js\n- function util0\(a, b\)\n/);
    assert.ok(context.left.includes('lib/util.js'));
  });

  it('over budget: what did not fit is left out and named, in the context and in the prompt', async () => {
    const { state, big } = bugAtLine1550();
    write('lib/other.js', bigSource().text);
    state.current.witness.failures[0]!.message += `\n    at Command.parse10 (lib/other.js:${big.fn.start - 800}:5)`;
    const { context, prompt, section } = await gather(state, 600);
    assert.ok(context.left.includes('lib/other.js'), JSON.stringify(context.left));
    assert.match(prompt, /Not shown \(outside the code budget, --context-tokens\): [^\n]*lib\/other\.js/);
    assert.ok(prompt.includes('const limit = 3;'), 'the best-ranked function still fits');
    assert.ok(context.tokens <= 600 && estimateTokens(section) <= 600, `${context.tokens} / ${estimateTokens(section)}`);
  });

  /** The session's reader: the real import resolver, gated by the run's path policy. */
  const resolvingReader = () => createCodeReader({ cwd: root, reach: importReach(root, { gate: (rel) => checkReadable(policy(), rel) }) });

  it("a bug two calls below what the test calls, behind a re-export index, named by no stack frame (ufo's shape): shown, before small files nobody calls", async () => {
    const filler = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `export function ${prefix}${i}(input = ""): string {\n  return input.padStart(${i + 8}, "-").slice(0, ${i + 3}).toUpperCase() + "${prefix}";\n}\n`).join('\n');
    write('src/index.ts', 'export * from "./encoding";\nexport * from "./utils";\n');
    write('src/encoding.ts', filler('encode', 12));
    write('src/utils.ts', [
      filler('helper', 30),
      'export function hasLeadingSlash(input = ""): boolean {',
      '  return input.startsWith("/");',
      '}',
      '',
      'export function withoutLeadingSlash(input = ""): string {',
      '  return (hasLeadingSlash(input) ? input.slice(2) : input) || "/";',
      '}',
      '',
      'export function resolveURL(base = "", ...inputs: string[]): string {',
      '  let url = base;',
      '  for (const input of inputs) url = url.replace(/\\/?$/, "/") + withoutLeadingSlash(input);',
      '  return url;',
      '}',
      filler('more', 30),
    ].join('\n'));
    write('test/resolve.test.ts', 'import { expect, it } from "vitest";\nimport { resolveURL } from "../src";\n\nit("joins", () => {\n  expect(resolveURL("a", "/c")).toBe("a/c");\n});\n');
    const state = stateWith([{ id: 'joins', file: 'test/resolve.test.ts', message: "AssertionError: expected 'a/' to be 'a/c'\n ❯ test/resolve.test.ts:5:32" }]);
    const { context, prompt } = await gather(state, 6000, resolvingReader());
    const utils = context.files.find((f) => f.path === 'src/utils.ts');
    assert.deepStrictEqual(utils?.regions.filter((r) => r.kind !== 'imports').map((r) => r.name), ['hasLeadingSlash', 'withoutLeadingSlash', 'resolveURL']);
    assert.ok(prompt.includes('  return (hasLeadingSlash(input) ? input.slice(2) : input) || "/";'), 'the wrong line');
    assert.ok(!prompt.includes("helper3(input = \"\"): string {\n"), `not the functions nothing calls:\n${prompt}`);
    const order = context.files.map((f) => f.path);
    assert.ok(!order.includes('src/encoding.ts') || order.indexOf('src/encoding.ts') > order.indexOf('src/utils.ts'), `a small file nobody calls comes after: ${order}`);
  });

  it("a Go test failing in a shared helper (common_test.go): the test's own function, found in its package, leads through two calls to the constant at fault", async () => {
    write('go.mod', 'module example.com/when\n\ngo 1.21\n');
    write('common_test.go', 'package when\n\nimport "testing"\n\nfunc check(t *testing.T, got, want string) {\n\tif got != want {\n\t\tt.Errorf("expected %q, but got %q", want, got)\n\t}\n}\n');
    write('times_test.go', 'package when\n\nimport "testing"\n\nfunc TestPast(t *testing.T) {\n\tcheck(t, Ago(8), "1 week ago")\n}\n');
    write('times.go', [
      'package when',
      '',
      'import "fmt"',
      '',
      'const (',
      '\tDay  = 1',
      '\tWeek = 6 * Day',
      ')',
      '',
      'var units = []struct {',
      '\tsize int',
      '\tname string',
      '}{{Week, "week"}, {Day, "day"}}',
      '',
      'func Ago(days int) string {',
      '\treturn relative(days, "ago")',
      '}',
      '',
      'func relative(days int, label string) string {',
      '\tfor _, u := range units {',
      '\t\tif days >= u.size {',
      '\t\t\treturn fmt.Sprintf("%d %s %s", days/u.size, u.name, label)',
      '\t\t}',
      '\t}',
      '\treturn "now"',
      '}',
      '',
    ].join('\n'));
    const state = stateWith([{ id: 'TestPast', file: 'common_test.go', message: "common_test.go:7: expected \"1 week ago\", but got \"1 week ago\"" }]);
    const { context, prompt } = await gather(state, 6000, resolvingReader());
    assert.ok(context.files.some((f) => f.path === 'times_test.go' && f.regions.some((r) => r.name === 'TestPast')), 'the test function, from the file that declares it');
    assert.ok(prompt.includes('\tWeek = 6 * Day'), 'the constant two calls and a table below the test');
    assert.ok(prompt.includes('func relative(days int, label string) string {'));
  });

  it('a file no grammar reads: a window of lines around the named line, never the head of the file', async () => {
    // Swift: no grammar ships with VS Code's set.
    write('lib/cart.swift', Array.from({ length: 600 }, (_, i) => `line_${i + 1} = ${i + 1}`).join('\n'));
    const state = stateWith([{ id: 'cart total', message: 'expected 3, got 2\n  lib/cart.swift:300: error: total' }]);
    const { context, prompt } = await gather(state);
    assert.ok(prompt.includes('line_300 = 300') && prompt.includes('line_280 = 280'), 'the lines around 300');
    assert.ok(!prompt.includes('line_1 = 1\n'), 'not the head');
    assert.deepStrictEqual(context.files.map((f) => f.regions.map((r) => `${r.startLine}-${r.endLine}`)), [['280-320']]);
  });

  it('without a reader (a host that gives none): windows of lines, still never a head cut', async () => {
    const { state, big } = bugAtLine1550();
    const noReader = undefined as unknown as ReturnType<typeof createCodeReader>;
    const { prompt } = await gather(state, 6000, noReader);
    assert.ok(prompt.includes('const limit = 3;'));
    assert.ok(!prompt.includes('const limit = 0;'));
    assert.ok(big.bugLine > 1500);
  });
});
