// The model's explanation as the history, the panel and the next prompt quote it: whole sentences, cut where a
// reader would cut them.
import * as assert from 'assert';
import { summarizeHypothesis } from '../../../../src/core/edits/hypothesis';

describe('the model\'s explanation is quoted the way a reader splits sentences', () => {
  it('a file name, a decimal or a version inside a sentence never ends it', () => {
    assert.equal(summarizeHypothesis('The bug is in src/money.ts. I pad the cents.'), 'The bug is in src/money.ts. I pad the cents.');
    assert.equal(
      summarizeHypothesis('Rounding 3.14 to 3.1 is wrong in lib/round.js. Version v1.2.3 changed it. I restore it. Then the tests pass.'),
      'Rounding 3.14 to 3.1 is wrong in lib/round.js. Version v1.2.3 changed it. I restore it.',
    );
  });

  it('abbreviations (e.g., i.e., etc., cf., Mr.) do not count as sentence ends, whatever follows them', () => {
    assert.equal(
      summarizeHypothesis('Amounts, e.g. 3.50, lose their cents. The cause, i.e. Math.floor, is in src/money.ts. I use toFixed, cf. MDN. Not quoted.'),
      'Amounts, e.g. 3.50, lose their cents. The cause, i.e. Math.floor, is in src/money.ts. I use toFixed, cf. MDN.',
    );
    assert.equal(summarizeHypothesis('Dates, times, etc. are parsed twice. As Mr. Smith said, once is enough. Fixed. Not quoted.'), 'Dates, times, etc. are parsed twice. As Mr. Smith said, once is enough. Fixed.');
  });

  it('a question and an exclamation end sentences; code fences are left out', () => {
    assert.equal(summarizeHypothesis('Why 0.1 + 0.2? Floats! So I round.\n```ts\nx.toFixed(2)\n```\nNot quoted.'), 'Why 0.1 + 0.2? Floats! So I round.');
  });
});
