// Which reader an output goes to when the person named no format: every captured report ranks its own reader
// strictly first, and outputs that are no report (crashes, a missing program, silence) are nobody's.
import { strict as assert } from 'assert';
import { readdirSync } from 'fs';
import { join } from 'path';
import type { CheckerFormat } from '../../../src/verify/checkers/checkerTypes';
import { chooseReader, detectReader, formatFromCommand, MIN_SCORE, parseCheckerFormat, scoreReaders } from '../../../src/verify/checkers/readerChoice';
import { CAPTURED, capture } from './support';

const REPORTS: [string, string, CheckerFormat][] = [
  ['eslint', 'errors', 'eslint'], ['eslint', 'clean', 'eslint'], ['eslint', 'npm-script', 'eslint'],
  ['biome', 'errors', 'biome'], ['biome', 'clean', 'biome'],
  ['oxlint', 'errors', 'oxlint'], ['oxlint', 'clean', 'oxlint'],
  ['pyright', 'errors', 'pyright'], ['pyright', 'clean', 'pyright'], ['pyright', 'config-error', 'pyright'],
  ['mypy', 'errors', 'mypy'], ['mypy', 'columns', 'mypy'], ['mypy', 'clean', 'mypy'], ['mypy', 'syntax-error', 'mypy'],
  ['pylint', 'errors', 'pylint'], ['pylint', 'clean', 'pylint'],
  ['govet', 'errors', 'go-vet'], ['govet', 'json', 'go-vet'], ['govet', 'type-error', 'go-vet'],
  ['cargo', 'check-errors', 'cargo-json'], ['cargo', 'clippy-warnings', 'cargo-json'], ['cargo', 'clean', 'cargo-json'],
  ['gcc', 'errors', 'gcc'],
];

describe('checker output detection', () => {
  for (const [tool, name, format] of REPORTS) {
    it(`${tool}/${name} is ${format}'s, ahead of every other reader`, () => {
      const [first, second] = scoreReaders(capture(tool, name));
      assert.equal(first.reader.format, format);
      assert.ok(first.score >= 0.5, `${format} scores only ${first.score}`);
      assert.ok(first.score > second.score, `${second.reader.format} ties at ${second.score}`);
    });
  }

  it('no reader claims a crash, a usage error, a missing program or silence', () => {
    const notReports = readdirSync(CAPTURED, { withFileTypes: true }).filter((d) => d.isDirectory()).flatMap((d) =>
      readdirSync(join(CAPTURED, d.name))
        .filter((f) => /^(config-error|not-installed|empty|missing-file)\.txt$/.test(f) || (f === 'clean.txt' && ['govet', 'gcc'].includes(d.name)))
        .filter((f) => !(d.name === 'pyright' && f === 'config-error.txt')) // pyright prints an (empty) report even then
        .map((f) => [d.name, f.replace(/\.txt$/, '')]));
    assert.ok(notReports.length >= 15, `only ${notReports.length} captures to check`);
    for (const [tool, name] of notReports) {
      const best = scoreReaders(capture(tool, name))[0];
      assert.ok(best.score < MIN_SCORE, `${tool}/${name}: ${best.reader.format} scores ${best.score}`);
      assert.equal(detectReader(capture(tool, name)), null);
    }
  });

  it('the command names the tool when its output cannot (go vet and gcc print nothing when clean)', () => {
    assert.equal(chooseReader('', 'go vet ./...')?.format, 'go-vet');
    assert.equal(chooseReader('', 'npx tsc --noEmit -p .')?.format, 'tsc');
    // ESLint prints a report even when clean: its silence is not read as clean.
    assert.equal(chooseReader('', 'npx eslint --format json -o out.json .'), null);
    assert.equal(chooseReader('', 'make lint'), null);
  });

  it('the output outranks the command: `npm run lint` printing ESLint\'s JSON is ESLint', () => {
    assert.equal(chooseReader(capture('eslint', 'npm-script'), 'npm run lint')?.format, 'eslint');
    assert.equal(chooseReader(capture('mypy', 'errors'), 'make typecheck')?.format, 'mypy');
  });

  it('formatFromCommand reads the program through the usual wrappers, and not from a look-alike word', () => {
    const cases: [string, CheckerFormat | null][] = [
      ['npx eslint --format json .', 'eslint'], ['./node_modules/.bin/eslint -f json src', 'eslint'],
      ['npx @biomejs/biome lint --reporter=json .', 'biome'], ['biome check --reporter=json', 'biome'],
      ['oxlint -f json', 'oxlint'], ['npx basedpyright --outputjson', 'pyright'], ['uv run mypy src', 'mypy'],
      ['python -m pylint --output-format=json pkg', 'pylint'], ['go vet ./...', 'go-vet'],
      ['cargo clippy --message-format=json', 'cargo-json'], ['cargo +nightly check --message-format=json', 'cargo-json'],
      ['npm run lint', null], ['eslint-plugin-foo-check', null], ['cargo test', null], ['biome format .', null],
    ];
    for (const [command, format] of cases) assert.equal(formatFromCommand(command), format, command);
  });

  it('parseCheckerFormat takes the names people use and refuses the rest', () => {
    assert.equal(parseCheckerFormat('ESLint'), 'eslint');
    assert.equal(parseCheckerFormat('clippy'), 'cargo-json');
    assert.equal(parseCheckerFormat('go vet'), 'go-vet');
    assert.equal(parseCheckerFormat('rubocop'), 'rubocop');
    assert.equal(parseCheckerFormat('sonar'), null);
  });
});
