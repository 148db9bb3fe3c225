// The npm package carries every file the `greenloop` command can load, on any path: the files are found by walking
// the built bundles' own requires and __dirname paths (test/support/bundleReach.ts), never from a list, and compared
// with what `npm pack` would put in the tarball. (dist/action.js, loaded only for `fix --format github` — the default
// inside any GitHub Actions job — was left out of the package by .npmignore's list.) test/package/packInstall.test.ts
// installs the tarball and runs those paths.
import { strict as assert } from 'assert';
import { spawnSync } from 'child_process';
import { ensureCliBuilt, ROOT } from './support/cli';
import { bundleReach } from '../support/bundleReach';

function packedFiles(): string[] {
  // --ignore-scripts: the bundles were just built; prepack would build them again.
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, npm_config_loglevel: 'error' }, shell: process.platform === 'win32' });
  assert.equal(r.status, 0, r.stderr);
  return (JSON.parse(r.stdout) as Array<{ files: Array<{ path: string }> }>)[0].files.map((f) => f.path);
}

describe('the npm package holds every file the CLI loads', function () {
  this.timeout(120_000);

  it('every file reached from dist/cli.js — chunks, the MCP server, the GitHub writers, the grammars — is packed', () => {
    ensureCliBuilt();
    const reached = bundleReach(ROOT, 'dist/cli.js');
    // The walk itself works: it finds what every command loads and what only one mode loads.
    for (const f of ['dist/cli.js', 'dist/base.js', 'dist/runtime.js', 'dist/mcp.js', 'dist/action.js', 'dist/tree-sitter/tree-sitter.wasm']) {
      assert.ok(reached.files.includes(f), `the walk did not reach ${f}: ${reached.files.join(', ')}`);
    }
    assert.deepEqual(reached.absent, [], 'the bundles name files the build did not write');
    const packed = new Set(packedFiles());
    const missing = reached.files.filter((f) => !packed.has(f));
    assert.deepEqual(missing, [], `the CLI can load these, but npm pack leaves them out (see .npmignore): ${missing.join(', ')}`);
  });
});
