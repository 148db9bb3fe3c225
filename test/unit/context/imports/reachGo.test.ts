// Following Go imports from a failing test: packages of the module, and a test's own package, checked against
// `go list`, on real files.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import { TempWorkspace } from './workspace';

/** The non-test files `go list` says make up the package in `dir` (what the compiler builds). */
function goListFiles(ws: TempWorkspace, dir: string): string[] {
  const out = execFileSync('go', ['list', '-f', '{{range .GoFiles}}{{$.Dir}}/{{.}}\n{{end}}', `./${dir}`], {
    cwd: ws.root,
    encoding: 'utf8',
    env: { ...process.env, GOFLAGS: '-mod=mod', GOPROXY: 'off', GOTOOLCHAIN: 'local' },
  });
  return out.trim().split('\n').map((f) => f.slice(ws.root.length + 1));
}

describe('import reach: Go', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = new TempWorkspace();
  });
  afterEach(() => ws.dispose());

  it('a test in one package reaches the bug in a sibling package it imports, every file of it, the one defining the call first', async () => {
    ws.write({
      'go.mod': 'module example.com/semver\n\ngo 1.21\n',
      'version/version.go': 'package version\n\ntype Version struct{ Major int }\n\nfunc Parse(s string) (Version, error) { return Version{}, nil }\n',
      'version/constraint.go': 'package version\n\nfunc Check(v Version) bool { return true }\n',
      'version/version_test.go': 'package version\n\nimport "testing"\n\nfunc TestInside(t *testing.T) {}\n',
      'cmd/tool/main.go': 'package main\n\nimport (\n\t"fmt"\n\tsv "example.com/semver/version"\n)\n\nfunc main() { v, _ := sv.Parse("1"); fmt.Println(v) }\n',
      'cmd/tool/main_test.go': 'package main\n\nimport (\n\t"testing"\n\n\t"example.com/semver/version"\n)\n\nfunc TestTool(t *testing.T) {\n\tif _, err := version.Parse("1.2.3"); err != nil {\n\t\tt.Fatal(err)\n\t}\n\tmain()\n}\n',
    });
    assert.deepStrictEqual(goListFiles(ws, 'version').sort(), ['version/constraint.go', 'version/version.go']);
    const reached = await ws.reach(['cmd/tool/main_test.go']);
    assert.deepStrictEqual(reached.map((f) => `${f.path}@${f.distance}`), ['cmd/tool/main_test.go@0', 'version/version.go@1', 'cmd/tool/main.go@1', 'version/constraint.go@1']);
    assert.deepStrictEqual(reached[1].symbols, ['Parse']);
  });

  it("a _test.go file reaches its own package's files (internal and external test packages), never other test files", async () => {
    ws.write({
      'go.mod': 'module github.com/acme/calc\n',
      'calc.go': 'package calc\n\nfunc Add(a, b int) int { return a + b }\n',
      'round.go': 'package calc\n\nfunc Round(x float64) int { return int(x) }\n',
      'helpers_test.go': 'package calc\n\nfunc helper() {}\n',
      'calc_test.go': 'package calc_test\n\nimport (\n\t"testing"\n\n\t"github.com/acme/calc"\n)\n\nfunc TestRound(t *testing.T) { _ = calc.Round(1.5) }\n',
    });
    assert.deepStrictEqual(await ws.order(['calc_test.go'], 1), ['calc_test.go@0', 'round.go@1', 'calc.go@1']);
  });

  it('a nested module answers for its own import path; the standard library and other modules are not files here', async () => {
    ws.write({
      'go.mod': 'module example.com/root\n',
      'tools/go.mod': 'module example.com/tools\n',
      'tools/lint/lint.go': 'package lint\n\nimport (\n\t"strings"\n\t"example.com/tools/internal/rules"\n\t"example.com/root/x"\n\t"golang.org/x/mod/modfile"\n)\n',
      'tools/internal/rules/rules.go': 'package rules\n',
      'x/x.go': 'package x\n',
    });
    assert.deepStrictEqual(await ws.order(['tools/lint/lint.go'], 1), ['tools/lint/lint.go@0', 'tools/internal/rules/rules.go@1']);
  });
});
