// The README's commands are what a new user types first: each npm script it names must exist, and its first code
// block must be exactly the two set-up commands (CI runs them word for word through scripts/readmeCommand.sh).
// The depth lives in docs/*.md: those pages are held to the same rules, and every relative link between them (and
// the heading it points at) must lead somewhere.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');
const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const scripts = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
const docs = fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => path.join('docs', f));
const pages = ['README.md', ...docs];
const FRONT_PAGE_LIMIT = 10 * 1024;

/** Markdown without its fenced code blocks: a `#` comment or a `[x](y)` inside a shell example is neither a heading nor a link. */
function prose(text: string): string {
  return text.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of prose(text).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const base = heading.toLowerCase().replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Every link and picture target in a page's prose, as written. */
function linkTargets(text: string): string[] {
  return [...prose(text).matchAll(/!?\[(?:[^\]]|\](?!\())*\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g)].map((m) => m[1]);
}

/** What is wrong with each relative link of `page` (empty when every one leads to a file, and to a heading if it names one). */
function brokenLinks(page: string, text: string): string[] {
  const out: string[] = [];
  for (const target of linkTargets(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http(s):, mailto: — not ours to check offline
    const [file, anchor] = target.split('#', 2);
    const resolved = file ? path.join(ROOT, path.dirname(page), decodeURI(file)) : path.join(ROOT, page);
    if (!fs.existsSync(resolved)) { out.push(`${page} links ${target}, which does not exist`); continue; }
    if (anchor === undefined || !resolved.endsWith('.md')) continue;
    if (!anchors(fs.readFileSync(resolved, 'utf8')).has(decodeURIComponent(anchor))) {
      out.push(`${page} links ${target}, but ${path.relative(ROOT, resolved)} has no heading with the anchor #${anchor}`);
    }
  }
  return out;
}

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

describe('README front page and docs/ pages', () => {
  it('keeps the front page under 10 KB', () => {
    const size = Buffer.byteLength(readme);
    assert.ok(size <= FRONT_PAGE_LIMIT, `README.md is ${size} bytes, over ${FRONT_PAGE_LIMIT}; move depth to docs/`);
  });

  it('links every docs/ page from the front page', () => {
    const linked = new Set(linkTargets(readme).map((t) => path.normalize(t.split('#')[0])));
    assert.ok(docs.length >= 7, `docs/ holds ${docs.length} pages`);
    for (const page of docs) assert.ok(linked.has(page), `README.md does not link ${page}`);
  });

  it('names only npm scripts that exist, in every docs/*.md', () => {
    for (const page of docs) {
      const text = fs.readFileSync(path.join(ROOT, page), 'utf8');
      for (const [, name] of text.matchAll(/npm run ([\w:-]+)/g)) {
        assert.ok(scripts[name], `${page} runs "npm run ${name}", which package.json does not define`);
      }
    }
  });

  it('has no relative link that leads nowhere, in README.md and every docs/*.md', () => {
    const broken = pages.flatMap((page) => brokenLinks(page, fs.readFileSync(path.join(ROOT, page), 'utf8')));
    assert.deepStrictEqual(broken, []);
  });

  it('the link check itself catches a missing file, a missing heading, and a missing picture', () => {
    const planted = '[ok](loop.md#protected-by-default) [gone](nowhere.md) [no heading](cli.md#no-such-heading) ![x](missing.png)';
    assert.deepStrictEqual(brokenLinks(path.join('docs', 'probe.md'), planted), [
      `${path.join('docs', 'probe.md')} links nowhere.md, which does not exist`,
      `${path.join('docs', 'probe.md')} links cli.md#no-such-heading, but docs/cli.md has no heading with the anchor #no-such-heading`,
      `${path.join('docs', 'probe.md')} links missing.png, which does not exist`,
    ]);
  });

  it('keeps the contract additions named in the docs', () => {
    const all = docs.map((page) => fs.readFileSync(path.join(ROOT, page), 'utf8')).join('\n');
    for (const name of ['`loadErrorFiles`', '`loadErrors`', '`outsideWarnings`', '`unmeasured`', '`requests`', '`flaky`', '`missing`', '`--focus TEST_ID`', '## Additions to the contract']) {
      assert.ok(all.includes(name), `no docs/*.md page names ${name}`);
    }
  });
});
