// `greenloop verify` on the two PHP projects (test/fixtures/projects/php-money, php-textkit) in each state of
// php-states.json — green, one bug, two bugs, a source file that does not parse — run by Debian's PHPUnit: the default
// command (none given: phpunit.xml(.dist) suggests `phpunit`) and a --junit run give exactly the failing IDs that
// PHPUnit's own JUnit log gives, as read by test/fixtures/regenerate/phpunit-truth.php (which never calls Greenloop),
// and the file that does not parse is the load error `php -l` names.
import * as assert from 'assert';
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { promisify } from 'util';
import { ROOT, runCli, tempDir } from '../support/cli';
import { needToolchain } from '../support/toolchains';

const PROJECTS = path.join(ROOT, 'test', 'fixtures', 'projects');
const TRUTH = path.join(ROOT, 'test', 'fixtures', 'regenerate', 'phpunit-truth.php');
type Replacement = { file: string; search: string; replace: string };
const STATES = JSON.parse(fs.readFileSync(path.join(PROJECTS, 'php-states.json'), 'utf8')) as Record<string, Record<string, Replacement[]>>;

interface Truth {
  failing: string[];
  ran: number;
  loadError: boolean;
  unparsable: Array<{ file: string; line: number }>;
}

/** The project copied to a temporary folder, in the state php-states.json names. */
function projectIn(project: string, state: string): string {
  const dir = tempDir(`verify-${project}-${state}`);
  fs.cpSync(path.join(PROJECTS, project), dir, { recursive: true });
  for (const r of STATES[project][state]) {
    const file = path.join(dir, r.file);
    const text = fs.readFileSync(file, 'utf8');
    assert.equal(text.split(r.search).length, 2, `${project} ${state}: ${r.file}`);
    fs.writeFileSync(file, text.replace(r.search, () => r.replace));
  }
  return dir;
}

describe('greenloop verify on PHPUnit projects: the IDs of PHPUnit\'s own JUnit log, console or --junit (real runs)', function () {
  this.timeout(180_000);
  before(() => needToolchain('php', 'phpunit'));

  for (const project of ['php-money', 'php-textkit']) {
    for (const state of ['green', 'one-bug', 'two-bugs', 'compile-error']) {
      // npm test keeps one bug and one file that does not parse; the six others run in `npm run test:heavy`.
      const everyRun = (project === 'php-money' && state === 'one-bug') || (project === 'php-textkit' && state === 'compile-error');
      it(`${project}, ${state}${everyRun ? '' : ' @heavy'}`, async () => {
        const dir = projectIn(project, state);
        try {
          const [truthOut, plain, junit] = await Promise.all([
            promisify(execFile)('php', [TRUTH, path.join(PROJECTS, project), state], { encoding: 'utf8' }),
            runCli(['verify', '--cwd', dir, '--tsc', 'off']),
            runCli(['verify', '--cwd', dir, '--tsc', 'off', '--test-cmd', 'phpunit --log-junit build/junit.xml', '--junit', 'build/junit.xml']),
          ]);
          const truth = JSON.parse(truthOut.stdout) as Truth;
          assert.equal(truth.ran, project === 'php-money' ? 22 : 24, 'the truth script read the whole log');
          for (const [how, res] of [['the default command', plain], ['--junit', junit]] as const) {
            assert.ok(res.stdout.trim(), `${how}: ${res.stderr}`);
            const w = JSON.parse(res.stdout);
            assert.deepEqual(w.failing, truth.failing, how);
            assert.equal(w.loadError, truth.loadError, how);
            assert.equal(w.green, state === 'green', how);
            assert.equal(res.code, state === 'green' ? 0 : 1, how);
            // The file that does not parse, where `php -l` says.
            assert.deepEqual(w.loadErrorFiles, truth.unparsable.map((u) => u.file), how);
          }
          assert.equal(truth.loadError, state === 'compile-error');
          assert.equal(truth.failing.length > 0, state !== 'green');
        } finally {
          fs.rmSync(dir, { recursive: true, force: true });
        }
      });
    }
  }
});
