// The README's commands are what a new user types first: each npm script it names must exist, and its first code
// block must be exactly the two set-up commands (CI runs them word for word through scripts/readmeCommand.sh).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');
const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const scripts = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;

describe('README commands', () => {
  it('opens with exactly two set-up commands: the demo, then the tests', () => {
    const first = readme.split(/^```.*$/m)[1].trim().split('\n').map((l) => l.replace(/\s+#.*$/, '').trim());
    assert.strictEqual(first.length, 2, first.join('\n'));
    assert.match(first[0], /npm run demo/);
    assert.match(first[1], /npm test/);
  });

  it('names only npm scripts that package.json has, and only files that exist', () => {
    const named = [...readme.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1]);
    assert.ok(named.length > 3);
    for (const name of new Set(named)) assert.ok(scripts[name], `README runs "npm run ${name}", which package.json does not define`);
    for (const [name, command] of Object.entries(scripts)) {
      for (const file of command.match(/(?:scripts|bench|test)\/[\w./-]+\.(?:js|ts|sh)/g) ?? []) {
        assert.ok(fs.existsSync(path.join(ROOT, file)), `script "${name}" runs ${file}, which does not exist`);
      }
    }
  });
});
