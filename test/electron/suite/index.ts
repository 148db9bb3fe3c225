// Entry point the extension host calls (extensionTestsPath): runs every bundled *.test.js beside it with mocha.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: true, timeout: 120_000 });
  for (const file of readdirSync(__dirname).filter((f) => f.endsWith('.test.js'))) mocha.addFile(join(__dirname, file));
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} test(s) failed.`)) : resolve()));
  });
}
