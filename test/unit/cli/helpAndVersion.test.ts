// `greenloop --version` and `greenloop help COMMAND` / `COMMAND --help`, run on the real bundle as a person types them:
// every flag a command accepts is listed with its default and the setting it mirrors, and what help says agrees with
// what the command parses and with the VS Code settings' own defaults (package.json).
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT, runCli, tempDir } from '../support/cli';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../../../src/actors/openaiActor';

const MANIFEST = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  contributes: { configuration: { properties: Record<string, { default?: unknown }> }; commands: Array<{ title: string }> };
};
const SETTINGS = MANIFEST.contributes.configuration.properties;

/** One flag's entry in `help COMMAND`: its head line and the two lines under it. */
interface HelpEntry {
  flag: string;
  head: string;
  defaultText: string;
  setting?: string;
}

function entries(help: string): HelpEntry[] {
  const flagsPart = help.split('\nFlags:\n')[1];
  assert.ok(flagsPart, `no "Flags:" section in:\n${help}`);
  const out: HelpEntry[] = [];
  const lines = flagsPart.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const head = /^ {2}--([a-z-]+)/.exec(lines[i]);
    if (!head) continue;
    const facts = /^ {6}\(default: (.*?)(?:; setting: (.*))?\)$/.exec(lines[i + 2] ?? '');
    assert.ok(facts, `--${head[1]} has no "(default: …)" line: ${lines.slice(i, i + 3).join(' / ')}`);
    out.push({ flag: head[1], head: lines[i], defaultText: facts[1], setting: facts[2] });
  }
  return out;
}

describe('greenloop --version and help (real bundle)', function () {
  this.timeout(120_000);

  it('--version prints the version of package.json, and nothing else', async () => {
    for (const arg of ['--version', 'version']) {
      const res = await runCli([arg]);
      assert.equal(res.code, 0, res.stderr);
      assert.equal(res.stdout, `${MANIFEST.version}\n`);
    }
  });

  for (const command of ['parse', 'verify', 'fix', 'hook', 'mcp']) {
    it(`help ${command} lists every flag ${command} accepts, each with its default; ${command} --help says the same`, async () => {
      const help = await runCli(['help', command]);
      assert.equal(help.code, 0, help.stderr);
      const asFlag = await runCli(command === 'hook' ? ['hook', 'claude-stop', '--help'] : [command, '--help']);
      assert.equal(asFlag.stdout, help.stdout);
      const listed = entries(help.stdout);
      assert.ok(listed.length >= 2, help.stdout);
      // Every flag listed is one the command parses: given all at once (a value to each that takes one), the first
      // flag refused is the unknown one put last.
      const given = listed.map((e) => (/^ {2}--[a-z-]+ \S/.test(e.head) ? `--${e.flag}=x` : `--${e.flag}`));
      const start = command === 'hook' ? ['hook', 'claude-stop'] : [command];
      // In a folder of its own: a refused `fix --report=x` still writes its report to x.
      const scratch = tempDir('help');
      const res = await runCli([...start, ...given, '--definitely-not-a-flag'], { input: '{}', cwd: scratch });
      fs.rmSync(scratch, { recursive: true, force: true });
      assert.match(res.stderr, /Unknown option '--definitely-not-a-flag'/, `${command}: ${res.stderr}`);
      // And the synopsis names no flag the command does not take.
      const synopsis = help.stdout.split('\nFlags:\n')[0];
      for (const named of new Set([...synopsis.matchAll(/--([a-z][a-z-]+)/g)].map((m) => m[1]))) {
        assert.ok(listed.some((e) => e.flag === named), `help ${command} names --${named}, which ${command} does not take`);
      }
    });
  }

  it('a flag that mirrors a setting names one that exists, with the same default', async () => {
    const help = await runCli(['help', 'fix']);
    const listed = entries(help.stdout);
    const mirrored = listed.filter((e) => e.setting?.startsWith('greenloop.'));
    assert.ok(mirrored.length >= 20, `only ${mirrored.length} flags name a setting`);
    for (const e of mirrored) {
      const setting = SETTINGS[e.setting!];
      assert.ok(setting, `--${e.flag} names ${e.setting}, which package.json does not contribute`);
      const { default: value } = setting;
      if (typeof value === 'number' || typeof value === 'boolean' || (typeof value === 'string' && value !== '')) {
        const shown = typeof value === 'boolean' ? (value ? 'on' : 'off') : String(value);
        // The agent preset is a setting's default only: on the command line no agent runs unless named.
        if (e.flag === 'agent' || e.flag === 'actor') continue;
        assert.ok(e.defaultText === shown || e.defaultText.startsWith(`${shown} (`), `--${e.flag}: help says "${e.defaultText}", ${e.setting} defaults to ${shown}`);
      }
    }
    const requestTimeout = listed.find((e) => e.flag === 'request-timeout-s');
    assert.equal(requestTimeout?.defaultText, String(DEFAULT_REQUEST_TIMEOUT_MS / 1000));
    // Flags that mirror a command name a command the extension contributes.
    const commandTitles = MANIFEST.contributes.commands.map((c) => `Greenloop: ${c.title}`);
    for (const e of listed.filter((x) => x.setting?.startsWith('Greenloop: '))) assert.ok(commandTitles.includes(e.setting!), `--${e.flag} names ${e.setting}`);
  });

  it('help for a command that does not exist is one sentence and exit 2', async () => {
    const res = await runCli(['help', 'fixx']);
    assert.equal(res.code, 2);
    assert.equal(res.stderr.trim().split('\n').length, 1);
    assert.match(res.stderr, /No command "fixx" to explain; use parse, verify, fix, hook, mcp\./);
  });
});
