// Following Python imports from a failing test the way the interpreter finds them, on real files; where the
// interpreter can say where a module is, the test asks it too.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as path from 'path';
import { TempWorkspace } from './workspace';

/** Where Python itself finds `module`, run from the workspace with `paths` on sys.path (as pytest puts them). */
function pythonFinds(ws: TempWorkspace, module: string, paths: string[]): string {
  const code = `import sys, importlib.util\nsys.path[:0] = ${JSON.stringify(paths.map((p) => path.join(ws.root, p)))}\nprint(importlib.util.find_spec(${JSON.stringify(module)}).origin)`;
  return path.relative(ws.root, execFileSync('python3', ['-c', code], { cwd: ws.root, encoding: 'utf8' }).trim()).split(path.sep).join('/');
}

describe('import reach: Python', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = new TempWorkspace();
  });
  afterEach(() => ws.dispose());

  it('a src/ layout: the test imports the package by name, which reaches the module holding the function it calls', async () => {
    ws.write({
      'pyproject.toml': '[project]\nname = "semverish"\n[tool.setuptools.packages.find]\nwhere = ["src"]\n',
      'src/semverish/__init__.py': 'from .version import Version, parse\nfrom .compare import *\n',
      'src/semverish/version.py': 'class Version:\n    pass\n\ndef parse(text):\n    return Version()\n',
      'src/semverish/compare.py': 'from . import version\n\ndef compare(a, b):\n    return 0\n',
      'tests/test_version.py': 'import semverish\nfrom semverish.version import parse\n\ndef test_parse():\n    assert parse("1.0")\n    assert semverish.compare(1, 2) == 0\n',
    });
    assert.strictEqual(pythonFinds(ws, 'semverish.version', ['src']), 'src/semverish/version.py');
    const reached = await ws.reach(['tests/test_version.py']);
    assert.deepStrictEqual(reached.map((f) => `${f.path}@${f.distance}`), [
      'tests/test_version.py@0',
      'src/semverish/version.py@1',
      'src/semverish/__init__.py@1',
      'src/semverish/compare.py@2',
    ]);
    assert.deepStrictEqual(reached[1].symbols, ['parse']);
  });

  it('relative imports: from . import x (a module), from ..a import b, from .mod import name', async () => {
    ws.write({
      'app/__init__.py': '',
      'app/core/__init__.py': '',
      'app/core/engine.py': 'from . import helpers\nfrom ..util.text import slug\nfrom .models import Model\n',
      'app/core/helpers.py': 'def help():\n    pass\n',
      'app/core/models.py': 'class Model:\n    pass\n',
      'app/util/__init__.py': '',
      'app/util/text.py': 'def slug(s):\n    return s\n',
    });
    assert.deepStrictEqual(await ws.order(['app/core/engine.py'], 1), ['app/core/engine.py@0', 'app/util/text.py@1', 'app/core/models.py@1', 'app/core/helpers.py@1']);
  });

  it('import a.b.c in a flat layout reaches the module, and a.b.c.f() names f for it', async () => {
    ws.write({
      'pkg/__init__.py': '',
      'pkg/sub/__init__.py': '',
      'pkg/sub/mod.py': 'def f():\n    return 1\n',
      'pkg/sub/other.py': '',
      'test_mod.py': 'import pkg.sub.mod\nimport pkg.sub.other as o\nimport os\n\ndef test_f():\n    assert pkg.sub.mod.f() == 1\n',
    });
    assert.strictEqual(pythonFinds(ws, 'pkg.sub.mod', []), 'pkg/sub/mod.py');
    const reached = await ws.reach(['test_mod.py'], 1);
    assert.deepStrictEqual(reached.map((f) => f.path), ['test_mod.py', 'pkg/sub/mod.py', 'pkg/sub/other.py']);
    assert.deepStrictEqual(reached[1].symbols, ['f']);
  });

  it("a test's helper module beside it (pytest puts the test's folder on sys.path) is reached; the standard library is not", async () => {
    ws.write({ 'tests/helpers.py': 'def make():\n    pass\n', 'tests/test_a.py': 'import json\nfrom helpers import make\n' });
    assert.deepStrictEqual(await ws.order(['tests/test_a.py']), ['tests/test_a.py@0', 'tests/helpers.py@1']);
  });
});
