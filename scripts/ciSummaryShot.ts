// docs/ci-summary.png: the job summary of a real simulated Actions run (the action's entry point on the calc fixture,
// the scripted model: one attempt without progress, then two fixes), rendered to HTML as GitHub renders a summary
// (markdown with HTML) and screenshotted in Chromium, the patch block opened.
// Run: npm run build && node -r tsx/cjs scripts/ciSummaryShot.ts [OUT.png]   (Chromium: /usr/bin/chromium or $CHROMIUM)
import * as fs from 'fs';
import * as path from 'path';
import { chromium } from 'playwright-core';
// markdown-it comes with the pinned @vscode/vsce (scripts/vsce.sh installs it); GitHub renders summaries as
// GitHub-flavoured markdown. It ships no types: the little this script uses is typed here.
const vsceDir = require('child_process').execFileSync('bash', [path.join(__dirname, 'vsce.sh'), '--where'], { encoding: 'utf8' }).trim();
const MarkdownIt = require(path.join(vsceDir, 'node_modules', 'markdown-it')) as new (opts: { html: boolean; linkify: boolean }) => MarkdownRenderer;
interface MarkdownRenderer {
  renderer: { rules: { fence?: (tokens: { content: string }[], i: number) => string } };
  utils: { escapeHtml(s: string): string };
  render(markdown: string): string;
}
import { actionHarness } from '../test/unit/action/actionHarness';
import { answer, COMMENT, FIX_ADD, FIX_MUL } from '../test/support/calcAnswers';

const PAGE_CSS = `
  body { font: 14px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; color: #1f2328; background: #f6f8fa; margin: 0; padding: 24px; }
  .box { background: #fff; border: 1px solid #d1d9e0; border-radius: 6px; padding: 16px 24px; max-width: 980px; }
  .box > h3 { font-size: 14px; color: #59636e; margin: 0 0 8px; font-weight: 600; }
  h2 { font-size: 1.5em; border-bottom: 1px solid #d1d9e0; padding-bottom: .3em; margin: 8px 0 16px; }
  table { border-collapse: collapse; margin: 0 0 16px; display: block; overflow: auto; }
  th, td { border: 1px solid #d1d9e0; padding: 6px 13px; text-align: left; vertical-align: top; }
  tr:nth-child(2n) { background: #f6f8fa; }
  code { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: rgba(129,139,152,.12); border-radius: 6px; padding: .2em .4em; }
  pre { background: #f6f8fa; border-radius: 6px; padding: 16px; overflow: auto; font: 12px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
  pre code { background: none; padding: 0; }
  details summary { cursor: pointer; margin: 8px 0; }
  .add { color: #116329; background: #dafbe1; display: inline-block; width: 100%; } .del { color: #82071e; background: #ffebe9; display: inline-block; width: 100%; }
`;

function render(markdown: string): string {
  const md = new MarkdownIt({ html: true, linkify: false });
  // The diff block coloured as GitHub colours a ```diff fence.
  md.renderer.rules.fence = (tokens, i) => {
    const lines = tokens[i].content.replace(/\n$/, '').split('\n').map((l: string) => {
      const esc = md.utils.escapeHtml(l);
      return l.startsWith('+') && !l.startsWith('+++') ? `<span class="add">${esc}</span>` : l.startsWith('-') && !l.startsWith('---') ? `<span class="del">${esc}</span>` : esc;
    });
    return `<pre><code>${lines.join('\n')}</code></pre>\n`;
  };
  return `<!doctype html><meta charset="utf-8"><style>${PAGE_CSS}</style><div class="box"><h3>fix summary</h3>${md.render(markdown)}</div>`;
}

async function main(): Promise<void> {
  const out = path.resolve(process.argv[2] ?? path.join(__dirname, '..', 'docs', 'ci-summary.png'));
  const h = await actionHarness();
  let markdown: string;
  try {
    const res = await h.run([answer(COMMENT('checking the module header first')), answer(FIX_ADD), answer(FIX_MUL)], { 'max-iterations': '6' });
    if (res.code !== 0) throw new Error(`the simulated run ended ${res.outputs.outcome} (exit ${res.code}):\n${res.stderr}`);
    // The temp folders of this one run say nothing to a reader: shown as a runner would name them.
    markdown = res.summary.split(h.scratch).join('/home/runner/work/_temp').split(/\/home\/runner\/work\/_temp\/runner-temp/).join('/home/runner/work/_temp');
  } finally {
    await h.close();
  }
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1040, height: 400 }, deviceScaleFactor: 1 });
    await page.setContent(render(markdown));
    await page.$$eval('details', (all) => all.forEach((d) => d.setAttribute('open', '')));
    await (await page.$('.box'))!.screenshot({ path: out });
  } finally {
    await browser.close();
  }
  process.stdout.write(`${out}\n`);
}

main().catch((e: Error) => {
  process.stderr.write(`${e.message}\n`);
  process.exitCode = 1;
});
