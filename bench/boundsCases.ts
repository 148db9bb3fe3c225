// The answers bench/bounds.bench.ts reads: each built to be slow for a naive parser or matcher, next to a plain
// answer of about the same size that does the same kind of work.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { endlessSentence, openHeader, quotedPath, repeatedLines, spacedFence } from '../test/support/adversarialAnswers';

export interface Answer {
  /** Writes the files the answer edits into a fresh workspace. */
  setup(root: string): void;
  text: string;
}

export interface BoundsCase {
  name: string;
  plain: Answer;
  adversarial: Answer;
}

const block = (p: string, search: string, replace: string) => `${p}\n\`\`\`js\n<<<<<<< SEARCH\n${search}=======\n${replace}>>>>>>> REPLACE\n\`\`\`\n`;

function write(root: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
}

/** An explanation of about `bytes` in ordinary sentences and lines, then one block that applies. */
function plainAnswer(bytes: number): Answer {
  const line = 'The total ignores the quantity of each item, so every sum with two or more of one item is too small.\n';
  return {
    setup: (root) => write(root, 'src/a.js', 'a();\n'),
    text: line.repeat(Math.ceil(bytes / line.length)) + block('src/a.js', 'a();\n', 'b();\n'),
  };
}

/** `n` numbered lines of the same width as `  f000000();`. */
function distinctLines(n: number, from = 0): string {
  let s = '';
  for (let i = from; i < from + n; i++) s += `  f${String(i).padStart(6, '0')}();\n`;
  return s;
}

const KB800 = 800_000;

export const CASES: BoundsCase[] = [
  {
    name: '800 KB path line (quotes)',
    plain: plainAnswer(KB800),
    adversarial: { setup: (root) => write(root, 'src/a.js', 'a();\n'), text: `${quotedPath(KB800 / 2, 'src/a.js')}\n${block('', 'a();\n', 'b();\n').slice(1)}` },
  },
  {
    name: '4 KB path line, 1,300 layers',
    plain: plainAnswer(4_000),
    adversarial: { setup: (root) => write(root, 'src/a.js', 'a();\n'), text: block(`${'**`'.repeat(665)}src/a.js${'`**'.repeat(665)}`, 'a();\n', 'b();\n') },
  },
  {
    name: 'fence line, 800 KB of spaces',
    plain: plainAnswer(KB800),
    adversarial: { setup: (root) => write(root, 'src/a.js', 'a();\n'), text: `${spacedFence(KB800)}\n${block('src/a.js', 'a();\n', 'b();\n')}` },
  },
  {
    name: '800 KB sentence without an end',
    plain: plainAnswer(KB800),
    adversarial: { setup: (root) => write(root, 'src/a.js', 'a();\n'), text: `${endlessSentence(KB800)}\n${block('src/a.js', 'a();\n', 'b();\n')}` },
  },
  {
    name: '20,000-line SEARCH, 1 of 40,000 equal',
    plain: { setup: (root) => write(root, 'src/big.js', distinctLines(40_001)), text: block('src/big.js', distinctLines(20_000, 20_001), '  done();\n') },
    adversarial: {
      setup: (root) => write(root, 'src/big.js', `${repeatedLines(40_000, '  f000000();')}  f999999();\n`),
      text: block('src/big.js', `${repeatedLines(19_999, '  f000000();')}  f999999();\n`, '  done();\n'),
    },
  },
  {
    name: '20,000-line SEARCH, other indentation',
    plain: { setup: (root) => write(root, 'src/big.js', distinctLines(40_001)), text: block('src/big.js', distinctLines(20_000, 20_001).replace(/^ {2}/gm, ''), 'done();\n') },
    adversarial: {
      setup: (root) => write(root, 'src/big.js', `${repeatedLines(40_000, '  f000000();')}  f999999();\n`),
      text: block('src/big.js', `${repeatedLines(19_999, 'f000000();')}f999999();\n`, 'done();\n'),
    },
  },
  {
    name: '20,000-line SEARCH found 20,001 times',
    plain: { setup: (root) => write(root, 'src/big.js', distinctLines(40_000)), text: block('src/big.js', distinctLines(20_000, 10_000), '  done();\n') },
    adversarial: { setup: (root) => write(root, 'src/big.js', repeatedLines(40_000, '  f000000();')), text: block('src/big.js', repeatedLines(20_000, '  f000000();'), '  done();\n') },
  },
  {
    name: '800 KB of broken blocks',
    plain: plainAnswer(KB800),
    adversarial: { setup: () => undefined, text: '<<<<<<< SEARCH\n'.repeat(KB800 / 15) },
  },
  {
    name: 'pyproject.toml header, 800 KB of spaces',
    plain: {
      setup: (root) => write(root, 'pyproject.toml', '[project]\nname = "x"\n'),
      text: block('pyproject.toml', 'name = "x"\n', `name = "x"\n${'description = "a plain line of text"\n'.repeat(KB800 / 36)}`),
    },
    adversarial: { setup: (root) => write(root, 'pyproject.toml', '[project]\nname = "x"\n'), text: block('pyproject.toml', 'name = "x"\n', `name = "x"\n${openHeader(KB800)}\n`) },
  },
  {
    // As deep as an edit may go, folders there already: every lookup and glob runs on every block.
    name: '400 blocks 100 folders deep',
    plain: plainAnswer(400 * 300),
    adversarial: {
      setup: (root) => fs.mkdirSync(path.join(root, 'dd/'.repeat(100)), { recursive: true }),
      text: Array.from({ length: 400 }, (_, i) => block(`${'dd/'.repeat(100)}f${i}.js`, '', 'x\n')).join(''),
    },
  },
  {
    name: '200 blocks with 4 KB deep paths',
    plain: plainAnswer(200 * 4_000),
    adversarial: { setup: () => undefined, text: Array.from({ length: 200 }, (_, i) => block(`${'d/'.repeat(1990)}f${i}.js`, '', 'x\n')).join('') },
  },
  {
    name: '800 KB of dotted assert chains',
    plain: plainAnswer(KB800),
    adversarial: { setup: (root) => write(root, 'src/a.js', 'a();\n'), text: block('src/a.js', 'a();\n', `${'assert .a .b .c .d .e .f .g .h\n'.repeat(KB800 / 31)}`) },
  },
];
