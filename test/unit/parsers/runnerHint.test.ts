// The runner a test command starts, as a hint for reading its output (issue 30: `npx mocha` under mocha 8, whose only
// output for a file that does not load is Node's stack trace, was "not a test report").
import { strict as assert } from 'assert';
import { runnerHints } from '../../../src/runners/runnerHint';

describe('runner hints from the test command', () => {
  const cases: Array<[string, Record<string, string> | null, string[]]> = [
    ['mocha', null, ['mocha']],
    ['npx mocha', null, ['mocha']],
    ['npx mocha@8 --reporter spec test/', null, ['mocha']],
    ['./node_modules/.bin/mocha --reporter spec test/', null, ['mocha']],
    ['./build/checks --reporter junit', null, ['catch2']],
    ['./node_modules/.bin/mocha test/**/*.test.js', null, ['mocha']],
    ['CI=1 nyc mocha', null, ['mocha']],
    // js-yaml 4.1.1: `npm test` runs its lint script, then mocha.
    ['npm test', { lint: 'eslint .', test: 'npm run lint && mocha' }, ['mocha']],
    ['yarn test', { test: 'npm run test:unit', 'test:unit': 'mocha --exit' }, ['mocha']],
    // A command the strict splitter refuses (a pipe, a redirection) still names its runner.
    ['npx mocha 2>&1 | tee test.log', null, ['mocha']],
    ['npm test', { test: 'mocha; echo done' }, ['mocha']],
    ['node --test test/', null, ['node', 'tap']],
    ['go test ./...', null, ['go']],
    ['python3 -m pytest -q', null, ['pytest']],
    ['cargo test --no-fail-fast', null, ['cargo']],
    ['npx jest --ci', null, ['jest']],
    ['make test', null, []],
    ['npm test', null, []],
    // Scripts that call each other in a loop end.
    ['npm test', { test: 'npm run again', again: 'npm test' }, []],
  ];
  for (const [command, scripts, hints] of cases) {
    it(`${command}${scripts ? ` (scripts ${JSON.stringify(scripts)})` : ''} → ${hints.join(', ') || 'no hint'}`, () => {
      assert.deepEqual(runnerHints(command, scripts), hints);
    });
  }
});
