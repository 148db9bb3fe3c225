import * as assert from 'assert';
import { classifyDiff } from '../../../../src/webview/diffLines';

describe('unified diff colouring', () => {
  it('tells files, hunks, additions, deletions and context apart', () => {
    const diff = [
      'diff --git a/src/cart.ts b/src/cart.ts',
      'index 111..222 100644',
      '--- a/src/cart.ts',
      '+++ b/src/cart.ts',
      '@@ -1,3 +1,3 @@',
      ' export function total(items) {',
      '-  return items.length;',
      '+  return items.reduce((s, i) => s + i.price * i.qty, 0);',
      ' }',
      '\\ No newline at end of file',
      '',
    ].join('\n');
    const { lines, omitted } = classifyDiff(diff);
    assert.deepStrictEqual(lines.map((l) => l.kind), ['file', 'meta', 'file', 'file', 'hunk', 'context', 'del', 'add', 'context', 'meta']);
    assert.strictEqual(omitted, 0);
  });

  it('does not mistake a removed "-- " line or an added "++ " line inside a hunk for a file header', () => {
    const diff = ['--- a/q.sql', '+++ b/q.sql', '@@ -1,2 +1,2 @@', '--- old comment', '+++ new comment', ' select 1;', '--- a/next.sql', '+++ b/next.sql', '@@ -1 +1 @@', '-a', '+b'].join('\n');
    assert.deepStrictEqual(classifyDiff(diff).lines.map((l) => l.kind), ['file', 'file', 'hunk', 'del', 'add', 'context', 'file', 'file', 'hunk', 'del', 'add']);
  });

  it('keeps markup as text (the panel sets textContent) and handles CRLF', () => {
    const { lines } = classifyDiff('@@ -1 +1 @@\r\n-<b>old</b>\r\n+<script>x</script>\r\n');
    assert.deepStrictEqual(lines, [
      { kind: 'hunk', text: '@@ -1 +1 @@' },
      { kind: 'del', text: '-<b>old</b>' },
      { kind: 'add', text: '+<script>x</script>' },
    ]);
  });

  it('caps very long diffs and says how many lines were left out', () => {
    const diff = ['@@ -1,0 +1,10 @@', ...Array.from({ length: 10 }, (_, i) => `+line ${i}`)].join('\n');
    const { lines, omitted } = classifyDiff(diff, 4);
    assert.strictEqual(lines.length, 4);
    assert.strictEqual(omitted, 7);
  });
});
