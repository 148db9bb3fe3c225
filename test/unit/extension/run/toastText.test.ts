import * as assert from 'assert';
import { toastText } from '../../../../src/extension/run/toastText';

describe('toast text', () => {
  it('keeps a short message whole', () => {
    assert.deepStrictEqual(toastText('Greenloop: all tests pass after 3 attempts.'), { text: 'Greenloop: all tests pass after 3 attempts.', cut: false });
  });

  it('cuts a long message at a sentence end a reader would see, not inside a file name', () => {
    const long = 'The test command `npm run test:ci` failed in src/money.ts. It printed a stack of 300 lines that the notification cannot show, ' + 'and more words follow here. '.repeat(8);
    const t = toastText(long);
    assert.strictEqual(t.cut, true);
    assert.strictEqual(t.text, 'The test command `npm run test:ci` failed in src/money.ts.');
  });

  it('cuts at a word with an ellipsis when no sentence ends early enough', () => {
    const t = toastText('word '.repeat(100));
    assert.strictEqual(t.cut, true);
    assert.ok(t.text.endsWith('word…') && t.text.length <= 180, t.text);
  });
});
