// Checker configuration is protected: whole files by glob, shared files by the sections that configure a checker,
// and the package.json scripts a check command runs.
import { strict as assert } from 'assert';
import { minimatch } from 'minimatch';
import { iniSections } from '../../../src/base/iniSections';
import { CHECKER_CONFIG_GLOBS, CHECKER_SECTION_RULES, packageScriptsPart, scriptsNamedBy } from '../../../src/shared/checkerConfigs';

const isProtected = (rel: string): boolean => CHECKER_CONFIG_GLOBS.some((g) => minimatch(rel, g, { dot: true }));

/** A rule's part of a file, read the way protectedContent reads pytest's sections. */
function part(file: string, text: string): string {
  const rule = CHECKER_SECTION_RULES.find((r) => r.file === file);
  assert.ok(rule, file);
  return JSON.stringify(iniSections(text).filter((s) => rule.sections.test(s.name)));
}

describe('checker configuration protection', () => {
  it('every checker config file the issue lists is protected, in any folder; ordinary files are not', () => {
    for (const rel of [
      'eslint.config.mjs', 'packages/web/eslint.config.ts', '.eslintrc', '.eslintrc.json', '.eslintrc.cjs', 'biome.json', 'biome.jsonc',
      '.oxlintrc.json', 'pyrightconfig.json', 'mypy.ini', '.pylintrc', '.golangci.yml', '.golangci.toml', 'clippy.toml', 'crates/a/clippy.toml',
      '.cargo/config.toml', 'ruff.toml', '.flake8',
    ]) assert.ok(isProtected(rel), rel);
    for (const rel of ['src/eslint.ts', 'src/biome.ts', 'pyproject.toml', 'Cargo.toml', 'src/lint/rules.go', 'mypy_helpers.py']) assert.ok(!isProtected(rel), rel);
  });

  it('pyproject.toml: [tool.mypy], [tool.pyright], [tool.pylint.*], [tool.ruff.*] and [[tool.mypy.overrides]] are the checker\'s; [project] is not', () => {
    const base = '[project]\nname = "m"\n\n[tool.mypy]\nstrict = true\n\n[[tool.mypy.overrides]]\nmodule = "x"\nignore_errors = false\n\n[tool.ruff.lint]\nselect = ["E"]\n\n[tool.pyright]\ntypeCheckingMode = "strict"\n\n[tool.pylint."messages control"]\ndisable = []\n';
    assert.equal(part('pyproject.toml', base), part('pyproject.toml', base.replace('name = "m"', 'name = "money"')));
    for (const [from, to] of [['strict = true', 'strict = false'], ['ignore_errors = false', 'ignore_errors = true'], ['select = ["E"]', 'select = []'],
      ['"strict"', '"basic"'], ['disable = []', 'disable = ["all"]']]) {
      assert.notEqual(part('pyproject.toml', base), part('pyproject.toml', base.replace(from, to)), `${from} → ${to}`);
    }
  });

  it('Cargo.toml: [lints] and [workspace.lints] are protected, [dependencies] is not', () => {
    const base = '[package]\nname = "m"\n\n[dependencies]\n\n[lints.clippy]\nall = "deny"\n\n[workspace.lints.rust]\nunused = "deny"\n';
    assert.equal(part('Cargo.toml', base), part('Cargo.toml', base.replace('[dependencies]\n', '[dependencies]\nserde = "1"\n')));
    assert.notEqual(part('Cargo.toml', base), part('Cargo.toml', base.replace('all = "deny"', 'all = "allow"')));
    assert.notEqual(part('Cargo.toml', base), part('Cargo.toml', base.replace('unused = "deny"', 'unused = "allow"')));
  });

  it('the scripts a check runs are named, with npm\'s pre/post hooks; package-manager commands are not scripts', () => {
    assert.deepEqual(scriptsNamedBy(['npm run lint', 'pnpm run --silent typecheck', 'yarn lint:py && npx eslint .', 'npm exec eslint', 'cargo clippy']), [
      'lint', 'lint:py', 'postlint', 'postlint:py', 'posttypecheck', 'prelint', 'prelint:py', 'pretypecheck', 'typecheck',
    ]);
    const pkg = JSON.stringify({ scripts: { lint: 'eslint --format json .', build: 'tsc' } });
    const names = scriptsNamedBy(['npm run lint']);
    assert.equal(packageScriptsPart(pkg, names), packageScriptsPart(pkg.replace('"tsc"', '"tsc -b"'), names));
    assert.notEqual(packageScriptsPart(pkg, names), packageScriptsPart(pkg.replace('eslint --format json .', 'eslint --format json src/ok.ts'), names));
    assert.notEqual(packageScriptsPart(pkg, names), packageScriptsPart(JSON.stringify({ scripts: { lint: 'eslint --format json .', prelint: 'exit 0' } }), names));
    assert.equal(packageScriptsPart('{ not json', names), null);
  });
});
