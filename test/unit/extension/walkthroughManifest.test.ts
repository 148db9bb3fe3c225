// The Get Started walkthrough is all manifest (package.json contributes.walkthroughs): each step's buttons must run
// commands that exist, each step must be checked off by an event that can happen (a contributed command run, a
// contributed setting changed), and its pages must ship in the vsix. The real-VS-Code test (test/e2e/walkthrough.e2e.ts)
// follows the steps; this one names the mistake in a manifest edit at once.
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  activationEvents: string[];
  contributes: {
    commands: Array<{ command: string }>;
    configuration: { properties: Record<string, unknown> };
    walkthroughs: Array<{ id: string; title: string; steps: Array<{ id: string; title: string; description: string; media: { markdown?: string; image?: string }; completionEvents: string[] }> }>;
  };
};
const commands = new Set(manifest.contributes.commands.map((c) => c.command));
const settings = new Set(Object.keys(manifest.contributes.configuration.properties));

describe('the Get Started walkthrough in the manifest', () => {
  const [walkthrough] = manifest.contributes.walkthroughs ?? [];

  it('is the one the extension opens on first start, which needs Greenloop to activate once VS Code has started', () => {
    assert.ok(walkthrough, 'package.json contributes no walkthrough');
    const opener = fs.readFileSync(path.join(ROOT, 'src', 'extension', 'walkthrough.ts'), 'utf8');
    assert.ok(opener.includes(`'${walkthrough.id}'`), `src/extension/walkthrough.ts does not open ${walkthrough.id}`);
    assert.ok(manifest.activationEvents.includes('onStartupFinished'));
  });

  it('has the four steps of issue 34, in order', () => {
    assert.deepEqual(walkthrough.steps.map((s) => s.id), ['chooseModel', 'checkTests', 'fixUntilGreen', 'readHistory']);
  });

  it('each step is checked off by running a contributed command or changing a contributed setting', () => {
    for (const step of walkthrough.steps) {
      assert.ok(step.completionEvents.length > 0, `${step.id} has no completion event (it would be checked off when opened)`);
      for (const event of step.completionEvents) {
        const [kind, name] = event.split(/:(.*)/s, 2);
        if (kind === 'onCommand') assert.ok(commands.has(name), `${step.id}: ${event} names a command package.json does not contribute`);
        else if (kind === 'onSettingChanged') assert.ok(settings.has(name), `${step.id}: ${event} names a setting package.json does not contribute`);
        else assert.fail(`${step.id}: ${event} is neither a command run nor a setting changed`);
      }
    }
  });

  it("each step's buttons run a contributed command (or open Greenloop's settings), and its page ships in the vsix", () => {
    const shipped = fs.readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8');
    assert.match(shipped, /^!media\/\*\*$/m, '.vscodeignore keeps media/ out of the vsix');
    for (const step of walkthrough.steps) {
      const links = [...step.description.matchAll(/\]\(command:([\w.]+)(\?[^)]*)?\)/g)];
      assert.ok(links.length > 0, `${step.id} has no button`);
      for (const [, command, args] of links) {
        if (command === 'workbench.action.openSettings') assert.match(decodeURIComponent(args ?? ''), /"greenloop\./, `${step.id}: its settings button opens no Greenloop setting`);
        else assert.ok(commands.has(command), `${step.id}: a button runs ${command}, which package.json does not contribute`);
      }
      const page = step.media.markdown ?? step.media.image;
      assert.ok(page?.startsWith('media/') && fs.existsSync(path.join(ROOT, page)), `${step.id}: ${page} is missing or not under media/`);
    }
  });
});
