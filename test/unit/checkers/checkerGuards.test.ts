// Guards that take code out of a checker's view (issue 30): found in each form an edit can add them, refused like a
// suppression — and their look-alikes a real project writes every day are not.
import { strict as assert } from 'assert';
import { findGuards } from '../../../src/core/edits/checkerGuards';
import { goConstraintHolds } from '../../../src/core/edits/goConstraints';
import type { GoBuildContext } from '../../../src/core/edits/goConstraints';
import { addedSuppressions, suppressionRefusal } from '../../../src/core/edits/suppressions';
import { witnessEditRefusal } from '../../../src/core/edits/applyBlocks';
import { makePathPolicy } from '../../../src/core/edits/pathPolicy';

const LINUX: GoBuildContext = { goos: 'linux', goarch: 'amd64', cgo: true };
const DARWIN: GoBuildContext = { goos: 'darwin', goarch: 'arm64', cgo: true };
const guards = (rel: string, text: string, go: GoBuildContext = LINUX): string[] => findGuards(rel, text, rel.endsWith('.py') ? 'python' : rel.endsWith('.go') ? 'go' : 'rust', go).map((g) => g.directive);

const MEAN = 'def mean(xs: list[int]) -> int:\n    return sum(xs) / len(xs)\n';
const indent = (text: string): string => text.replace(/^(?=.)/gm, '    ');

describe('checker guards: Python', () => {
  it('`if not TYPE_CHECKING:` in each spelling hides its block from mypy and pyright', () => {
    for (const head of ['if not TYPE_CHECKING:', 'if not typing.TYPE_CHECKING:', 'if TYPE_CHECKING is False:', 'if TYPE_CHECKING == False:', 'if not (TYPE_CHECKING):']) {
      const found = findGuards('shop/stats.py', `from typing import TYPE_CHECKING\n\n${head}\n${indent(MEAN)}`, 'python');
      assert.deepEqual(found.map((g) => [g.line, g.directive, g.tools]), [[3, head, ['mypy', 'pyright']]], head);
    }
    // Inside a class, and as the elif of another condition.
    assert.deepEqual(guards('a.py', `class A:\n    if not TYPE_CHECKING:\n${indent(indent(MEAN))}`), ['if not TYPE_CHECKING:']);
    assert.deepEqual(guards('a.py', `if DEBUG:\n    pass\nelif not TYPE_CHECKING:\n${indent(MEAN)}`), ['elif not TYPE_CHECKING:']);
  });

  it('the `else:` (or `elif`) of an `if TYPE_CHECKING:` hides what it defines: the checker sees only the other side', () => {
    const stubbed = `if TYPE_CHECKING:\n    def mean(xs: list[int]) -> float: ...\nelse:\n${indent(MEAN)}`;
    assert.deepEqual(findGuards('a.py', stubbed, 'python').map((g) => [g.line, g.directive]), [[3, 'if TYPE_CHECKING: … else:']]);
    assert.deepEqual(guards('a.py', 'import typing\n\nif typing.TYPE_CHECKING:\n    from x import Y\nelif sys.version_info > (3, 9):\n    Y = int\n'), ['if TYPE_CHECKING: … elif …:']);
    // The common fallback import is refused too (docs/loop.md says why).
    assert.deepEqual(guards('a.py', 'if TYPE_CHECKING:\n    from typing_extensions import Self\nelse:\n    Self = object\n'), ['if TYPE_CHECKING: … else:']);
    // Nested: the else at the TYPE_CHECKING block's own indentation, under a function.
    assert.deepEqual(guards('a.py', 'def f():\n    if TYPE_CHECKING:\n        x = 1\n    else:\n        x = 2\n    return x\n'), ['if TYPE_CHECKING: … else:']);
  });

  it('look-alikes are not guards: a plain `if TYPE_CHECKING:` import block, another if\'s else, strings, comments', () => {
    const imports = 'from __future__ import annotations\n\nfrom typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from shop.models import Order\n\n\ndef total(o: Order) -> int:\n    if o.empty:\n        return 0\n    else:\n        return o.sum\n';
    assert.deepEqual(guards('shop/total.py', imports), []);
    // An if/else that follows the block at the same indentation is its own statement.
    assert.deepEqual(guards('a.py', 'if TYPE_CHECKING:\n    import x\nif DEBUG:\n    y = 1\nelse:\n    y = 2\n'), []);
    // An if/else inside the TYPE_CHECKING block is the checker's to read.
    assert.deepEqual(guards('a.py', 'if TYPE_CHECKING:\n    if sys.version_info >= (3, 11):\n        from typing import Self\n    else:\n        from typing_extensions import Self\n'), []);
    assert.deepEqual(guards('a.py', 'def f():\n    """Never write\n    if not TYPE_CHECKING:\nelse:\n    here."""\n    # if not TYPE_CHECKING:\n    s = "if not TYPE_CHECKING:"\n    return s\n'), []);
    assert.deepEqual(guards('a.py', 'if TYPE_CHECKING:\n    X = (\n        1,\n)\nelse_value = 2\nTYPE_CHECKING = False\n'), []);
    assert.deepEqual(guards('a.py', 'if TYPE_CHECKING:\n    doc = """\nelse:\n"""\nprint(1)\n'), []);
  });

  it('only an added guard is refused; one already there, or moved, is not', () => {
    const guarded = `from typing import TYPE_CHECKING\n\nif not TYPE_CHECKING:\n${indent(MEAN)}`;
    assert.equal(addedSuppressions('a.py', MEAN, guarded).length, 1);
    assert.deepEqual(addedSuppressions('a.py', guarded, guarded.replace('sum(xs)', 'sum(xs or [0])')), []);
    assert.deepEqual(addedSuppressions('a.py', guarded, `x = 1\n${guarded}`), []);
  });
});

describe('checker guards: Go build constraints, judged for this machine', () => {
  it('a constraint false here (ignore, another OS, a custom tag, a broken expression) hides the file from go vet', () => {
    for (const head of ['//go:build ignore', '// +build ignore', '//go:build windows', '//go:build !linux', '//go:build linux && ignore', '//go:build integration', '//go:build (linux', '// +build windows,amd64']) {
      assert.deepEqual(guards('report.go', `${head}\n\npackage stats\n\nfunc F() {}\n`), [head], head);
    }
    assert.deepEqual(findGuards('report.go', '//go:build ignore\n\npackage stats\n', 'go', LINUX)[0].tools, ['go vet']);
  });

  it('a constraint true here is not a guard: a platform file for this OS, a release tag, a constraint after `package`', () => {
    for (const head of ['//go:build linux', '//go:build !windows', '//go:build linux || darwin', '//go:build unix && amd64', '//go:build go1.18', '//go:build cgo', '// +build linux darwin', '// +build linux,amd64 windows']) {
      assert.deepEqual(guards('stats_linux.go', `${head}\n\npackage stats\n`), [], head);
    }
    assert.deepEqual(guards('a.go', 'package stats\n\n//go:build ignore\nfunc F() {}\n'), [], 'after the package clause it is a plain comment');
    assert.deepEqual(guards('a.go', 'package stats\n\nconst s = "//go:build ignore"\n'), []);
    // A new file behind a false constraint hid nothing vet read before: a `go run gen.go` generator is not refused
    // (code moved into such a file is judged by where it came from: checkedFiles.movedOutOfReach).
    const generator = '//go:build ignore\n\npackage main\n\nfunc main() {}\n';
    assert.deepEqual(addedSuppressions('gen.go', null, generator), []);
    assert.deepEqual(addedSuppressions('stats_windows.go', null, '//go:build windows\n\npackage stats\n').map((s) => s.directive), []);
    assert.deepEqual(addedSuppressions('gen.go', 'package main\n\nfunc main() {}\n', generator).map((s) => s.directive), ['//go:build ignore']);
    // The same linux-only file is out of go vet's view on a Mac.
    assert.deepEqual(guards('stats_linux.go', '//go:build linux\n\npackage stats\n', DARWIN), ['//go:build linux']);
  });

  it('expressions as the go command reads them', () => {
    assert.equal(goConstraintHolds('linux && (amd64 || arm64) && !windows', LINUX, 'go:build'), true);
    assert.equal(goConstraintHolds('linux && !(amd64 || arm64)', LINUX, 'go:build'), false);
    assert.equal(goConstraintHolds('cgo', { ...LINUX, cgo: false }, 'go:build'), false);
    assert.equal(goConstraintHolds('linux amd64', LINUX, 'go:build'), false, 'two tags without an operator is no expression');
    assert.equal(goConstraintHolds('!windows,amd64 ignore', LINUX, '+build'), true);
  });
});

describe('checker guards: Rust cfg that names clippy', () => {
  it('#[cfg(not(clippy))], #![cfg(…)], cfg_attr on clippy and the old cargo-clippy feature', () => {
    const fn = 'pub fn is_max(x: u8) -> bool {\n    x > 255\n}\n';
    assert.deepEqual(guards('src/lib.rs', `#[cfg(not(clippy))]\n${fn}`), ['#[cfg(not(clippy))]']);
    assert.deepEqual(guards('src/lib.rs', `#![cfg(not(clippy))]\n${fn}`), ['#![cfg(not(clippy))]']);
    assert.deepEqual(guards('src/lib.rs', `#[cfg(all(unix, not(clippy)))]\n${fn}`), ['#[cfg(all(unix, not(clippy)))]']);
    assert.deepEqual(guards('src/lib.rs', `#[cfg_attr(not(clippy), path = "real.rs")]\nmod imp;\n`), ['#[cfg_attr(not(clippy), path = "real.rs")]']);
    assert.deepEqual(guards('src/lib.rs', `#[cfg(not(feature = "cargo-clippy"))]\n${fn}`), ['#[cfg(not(feature = "cargo-clippy"))]']);
    assert.deepEqual(findGuards('src/lib.rs', `#[cfg(not(clippy))]\n${fn}`, 'rust')[0].tools, ['clippy']);
  });

  it('look-alikes are not guards: #[cfg(test)] modules and helpers, features, platforms, lints named clippy::…, strings', () => {
    const text = [
      '#[cfg(unix)]', 'pub fn a() {}', '#[cfg(feature = "serde")]', 'pub fn b() {}', '#[cfg_attr(test, derive(Debug))]', 'pub struct C;',
      '#[cfg(test)]', 'fn helper() -> u8 { 3 }', 'const S: &str = "#[cfg(not(clippy))]";', '// #[cfg(not(clippy))]',
      'pub fn d() -> bool { cfg!(clippy) }', '#[cfg(test)]', 'mod tests {', '    #[test]', '    fn t() {}', '}',
    ].join('\n');
    assert.deepEqual(guards('src/lib.rs', text), []);
    // `#[allow(clippy::x)]` is a suppression, found once, not also a guard.
    const found = addedSuppressions('src/lib.rs', 'fn f() {}\n', '#[cfg_attr(clippy, allow(clippy::all))]\nfn f() {}\n');
    assert.deepEqual(found.map((s) => [s.kind, s.directive]), [['suppression', '#[cfg_attr(clippy, allow(clippy::all))]']]);
  });
});

describe('checker guards: the refusal', () => {
  const policy = makePathPolicy({ root: '/w', protectedGlobs: [], allowTestEdits: false, excludes: [] });
  const MEAN_GUARDED = `from typing import TYPE_CHECKING\n\nif not TYPE_CHECKING:\n${indent(MEAN)}`;

  it('names the guard, its line and the checker of the run it blinds, and says what to do', () => {
    assert.equal(witnessEditRefusal('shop/stats.py', MEAN, MEAN_GUARDED, policy, { checkers: ['mypy'] }),
      'shop/stats.py: the edit adds `if not TYPE_CHECKING:` (line 3), which hides code from mypy while the tests still run it; fix the code so the checker passes with all of it in view.');
    assert.match(witnessEditRefusal('shop/stats.py', MEAN, MEAN_GUARDED, policy, { checkers: ['pyright'] }) ?? '', /hides code from pyright while/);
    const both = suppressionRefusal('a.py', addedSuppressions('a.py', MEAN, `${MEAN_GUARDED}x = 1  # type: ignore\n`), ['mypy']);
    assert.match(both ?? '', /^a\.py: the edit adds a suppression `type: ignore` \(line 6\), which would hide what mypy reports.* a\.py: the edit adds `if not TYPE_CHECKING:` \(line 3\), which hides code from mypy/);
  });

  it('--allow-suppressions lets a guard through, as it does a suppression', () => {
    assert.equal(witnessEditRefusal('shop/stats.py', MEAN, MEAN_GUARDED, policy, { allowSuppressions: true }), null);
    assert.equal(witnessEditRefusal('report.go', 'package stats\n', '//go:build ignore\n\npackage stats\n', policy, { allowSuppressions: true }), null);
  });
});
