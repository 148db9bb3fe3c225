import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkPath, isProtected, makePathPolicy } from '../../../../src/core/edits/pathPolicy';
import type { PathPolicy } from '../../../../src/core/edits/pathPolicy';
import { DEFAULT_SNAPSHOT_EXCLUDES } from '../../../../src/shared/config';
import { DEFAULT_PROTECTED_GLOBS } from '../../../../src/session/protectedGlobs';

describe('pathPolicy', () => {
  let base: string;
  let root: string;
  let policy: PathPolicy;

  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'greenloop-paths-'));
    root = path.join(base, 'ws');
    fs.mkdirSync(path.join(root, 'src'), { recursive: true });
    fs.mkdirSync(path.join(root, '.git'));
    fs.mkdirSync(path.join(root, 'test'));
    fs.mkdirSync(path.join(base, 'outside'));
    fs.writeFileSync(path.join(root, 'src', 'cart.ts'), 'export {};\n');
    policy = makePathPolicy({ root, protectedGlobs: DEFAULT_PROTECTED_GLOBS, allowTestEdits: false, excludes: DEFAULT_SNAPSHOT_EXCLUDES });
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  const refused = (rel: string, p: PathPolicy = policy): string => {
    const r = checkPath(p, rel);
    assert.equal(r.ok, false, `${rel} should be refused`);
    return (r as { reason: string }).reason;
  };

  it('accepts ordinary source paths, existing or new, and normalizes them', () => {
    const r = checkPath(policy, './src/../src/cart.ts');
    assert.ok(r.ok);
    assert.equal(r.rel, 'src/cart.ts');
    assert.equal(r.abs, fs.realpathSync(path.join(root, 'src', 'cart.ts')));
    const fresh = checkPath(policy, 'src\\new\\deep\\util.ts');
    assert.ok(fresh.ok);
    assert.equal(fresh.rel, 'src/new/deep/util.ts');
  });

  it('refuses paths that leave the workspace by .., absolute paths and drive letters', () => {
    assert.match(refused('../outside/x.ts'), /points outside the workspace/);
    assert.match(refused('src/../../outside/x.ts'), /points outside the workspace/);
    assert.match(refused(path.join(base, 'outside', 'x.ts')), /is an absolute path; use a path relative to the workspace root/);
    assert.match(refused('C:\\Users\\me\\x.ts'), /is an absolute path/);
    assert.match(refused('c:x.ts'), /is an absolute path/);
    assert.match(refused('~/x.ts'), /home directory/);
    assert.match(refused('  '), /empty file path/);
  });

  it('refuses names with control characters (terminal escapes, NUL, DEL, C1), saying which', () => {
    assert.match(refused('src/\u001b]52;c;ZXZpbA==\u0007x.ts'), /contains a control character \(U\+001B\); use a plain workspace-relative path/);
    assert.match(refused('src/a\u0000b.ts'), /control character \(U\+0000\)/);
    assert.match(refused('src/a\u007fb.ts'), /control character \(U\+007F\)/);
    assert.match(refused('src/a\u009bb.ts'), /control character \(U\+009B\)/);
    assert.ok(checkPath(policy, 'src/café-ünïcode.ts').ok, 'ordinary non-ASCII names stay editable');
  });

  it('refuses anything under a .git folder, at any depth', () => {
    assert.match(refused('.git/config'), /is inside \.git\/, which Greenloop never edits/);
    assert.match(refused('vendor/lib/.git/HEAD'), /inside \.git\//);
    assert.match(refused('.GIT/hooks/pre-commit'), /inside \.git\//);
  });

  it('refuses paths matching the snapshot excludes, naming the glob', () => {
    assert.match(refused('node_modules/left-pad/index.js'), /matches the snapshot exclude \*\*\/node_modules\/\*\*, so an edit there could not be rolled back/);
    assert.match(refused('dist/cli.js'), /snapshot exclude dist\/\*\*/);
  });

  it('refuses protected test files with the sentence the model gets, unless test edits are allowed', () => {
    assert.equal(refused('test/cart.test.ts'), 'test/cart.test.ts is a protected test file; fix the code under test instead.');
    assert.match(refused('src/cart.spec.ts'), /protected test file/);
    assert.match(refused('pkg/__tests__/a.js'), /protected test file/);
    assert.match(refused('tests/test_calc.py'), /protected test file/);
    assert.ok(isProtected(policy, 'test/cart.test.ts'));
    assert.ok(!isProtected(policy, 'src/cart.ts'));

    const open = makePathPolicy({ root, protectedGlobs: DEFAULT_PROTECTED_GLOBS, allowTestEdits: true, excludes: DEFAULT_SNAPSHOT_EXCLUDES });
    assert.ok(checkPath(open, 'test/cart.test.ts').ok);
    assert.ok(!isProtected(open, 'test/cart.test.ts'));
  });

  it('protects the test files and test configuration of every runner the verifier reads, at any depth', () => {
    const protectedByDefault = [
      'test_calc.py', 'pkg/tests_helper_test.py', 'calc_test.py', 'conftest.py', 'sub/conftest.py', 'pytest.ini',
      'calc_test.go', 'internal/x/calc_test.go', 'testdata/golden.txt', 'tests/integration.rs',
      'jest.config.js', 'jest.config.ts', 'vitest.config.mts', 'vitest.workspace.ts', '.mocharc.json', '.mocharc.yml', '.vscode/tasks.json',
    ];
    for (const rel of protectedByDefault) assert.match(refused(rel), /protected test file/, rel);
    // unittest loads every test*.py its discovery finds: Django's app/tests.py, a testcalc.py.
    for (const rel of ['shop/tests.py', 'testcalc.py', 'pkg/test_calc.py']) assert.match(refused(rel), /protected test file/, rel);
    for (const rel of ['calc.py', 'src/testing_utils.ts', 'contest.py', 'main.go', 'jest.setup.js', 'package.json', 'pyproject.toml']) {
      assert.ok(checkPath(policy, rel).ok, `${rel} is ordinary source`);
    }
  });

  it("refuses a checker's configuration as a checker's configuration, naming the checker, not as a test file", () => {
    assert.equal(refused('mypy.ini'), 'mypy.ini configures mypy, which decides what the checker reports; fix the code so mypy passes as configured instead.');
    for (const [rel, tool] of [['pyrightconfig.json', 'pyright'], ['web/eslint.config.mjs', 'ESLint'], ['.golangci.yml', 'golangci-lint'], ['clippy.toml', 'clippy'], ['.cargo/config.toml', 'cargo'], ['tests/.flake8', 'flake8']]) {
      assert.match(refused(rel), new RegExp(`^${rel.replace(/\./g, '\\.')} configures ${tool}, which decides what the checker reports`), rel);
    }
    // tsconfig only with the type check, which adds its globs to the run's protected ones.
    assert.ok(checkPath(policy, 'tsconfig.json').ok);
    const typed = makePathPolicy({ root, protectedGlobs: [...DEFAULT_PROTECTED_GLOBS, '**/tsconfig*.json'], allowTestEdits: false, excludes: [] });
    assert.match(refused('tsconfig.build.json', typed), /^tsconfig\.build\.json configures tsc, which decides/);
  });

  it('uses the globs it was given, dotfiles included', () => {
    const custom = makePathPolicy({ root, protectedGlobs: ['**/.env*', 'fixtures/**'], allowTestEdits: false, excludes: [] });
    assert.match(refused('.env.local', custom), /protected/);
    assert.match(refused('fixtures/a.json', custom), /protected/);
    assert.ok(checkPath(custom, 'test/cart.test.ts').ok);
  });

  it('refuses a symlinked folder that points outside the workspace, and a link into the tests', () => {
    fs.symlinkSync(path.join(base, 'outside'), path.join(root, 'src', 'ext'), 'dir');
    assert.match(refused('src/ext/evil.ts'), /leads outside the workspace through a symbolic link/);
    fs.symlinkSync(path.join(root, 'test'), path.join(root, 'src', 'sneaky'), 'dir');
    assert.equal(refused('src/sneaky/helpers.ts'), 'src/sneaky/helpers.ts (a link to test/helpers.ts) is a protected test file; fix the code under test instead.');
    fs.symlinkSync(path.join(root, 'src'), path.join(root, 'lib'), 'dir');
    const inside = checkPath(policy, 'lib/cart.ts');
    assert.ok(inside.ok);
    assert.equal(inside.abs, fs.realpathSync(path.join(root, 'src', 'cart.ts')));
  });

  it('works when the workspace root itself is reached through a symlink', () => {
    const alias = path.join(base, 'alias');
    fs.symlinkSync(root, alias, 'dir');
    const viaAlias = makePathPolicy({ root: alias, protectedGlobs: [], allowTestEdits: false, excludes: [] });
    assert.ok(checkPath(viaAlias, 'src/cart.ts').ok);
  });
});
