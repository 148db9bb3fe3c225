// PHP's and C#'s suppression directives (issue 39, item 6), found where their tools read them and only when added:
// PHPStan's and Psalm's docblock tags, PHP_CodeSniffer's comments; C#'s #pragma warning disable, #nullable disable
// and [SuppressMessage].
import { strict as assert } from 'assert';
import { addedSuppressions, findSuppressions, suppressionRefusal } from '../../../src/core/edits/suppressions';

const directives = (rel: string, before: string | null, after: string): string[] => addedSuppressions(rel, before, after).map((s) => s.directive);

describe('added suppression directives in PHP and C#', () => {
  const PHP = '<?php\n\nfunction cents(int $n): string\n{\n    return (string) $n;\n}\n';
  const CS = 'namespace Ledger;\n\npublic static class Cents\n{\n    public static string Of(long n) => n.ToString();\n}\n';

  it('PHPStan and Psalm tags in a docblock or a line comment, PHP_CodeSniffer\'s ignore; each with its line', () => {
    const after = PHP.replace('    return', '    /** @phpstan-ignore-next-line */\n    // @psalm-suppress InvalidReturnStatement\n    # phpcs:ignore\n    return');
    const found = addedSuppressions('src/Money.php', PHP, after);
    assert.deepEqual(found.map((s) => [s.line, s.directive, s.tools]), [
      [5, '@phpstan-ignore-next-line', ['phpstan']],
      [6, '@psalm-suppress InvalidReturnStatement', ['psalm']],
      [7, 'phpcs:ignore', ['PHP_CodeSniffer']],
    ]);
    assert.deepEqual(directives('src/Money.php', PHP, PHP.replace('function cents', '/**\n * @psalm-suppress MixedReturnStatement\n */\nfunction cents')), ['@psalm-suppress MixedReturnStatement']);
    assert.deepEqual(directives('src/Money.php', PHP, PHP.replace('(string) $n;', '(string) $n; // @phpstan-ignore-line')), ['@phpstan-ignore-line']);
  });

  it('C#: #pragma warning disable, #nullable disable and [SuppressMessage] in code, never in a string', () => {
    const after = CS.replace('public static class', '#pragma warning disable CS8602\n[System.Diagnostics.CodeAnalysis.SuppressMessage("Style", "IDE0060")]\npublic static class')
      .replace('namespace Ledger;', 'namespace Ledger;\n#nullable disable');
    assert.deepEqual(addedSuppressions('src/Ledger/Cents.cs', CS, after).map((s) => [s.line, s.directive.slice(0, 40), s.tools]), [
      [2, '#nullable disable', ['dotnet build']],
      [4, '#pragma warning disable CS8602', ['dotnet build']],
      [5, '[System.Diagnostics.CodeAnalysis.Suppres', ['dotnet build']],
    ]);
    assert.deepEqual(findSuppressions('src/A.cs', 'var s = "#pragma warning disable CS0168";\n// [SuppressMessage("a", "b")] in prose\n'), []);
    assert.deepEqual(findSuppressions('src/A.php', '<?php\n$s = "@phpstan-ignore-line";\n#[\\ReturnTypeWillChange]\n'), []);
  });

  it('one already there, or moved, is not added; the refusal names the tool', () => {
    const had = CS.replace('public static class', '#pragma warning disable CS8602\npublic static class');
    assert.deepEqual(directives('src/Cents.cs', had, had.replace('    public static string', '\n    public static string')), []);
    const sentence = suppressionRefusal('src/Money.php', addedSuppressions('src/Money.php', PHP, PHP.replace('    return', '    /** @phpstan-ignore-next-line */\n    return')));
    assert.match(sentence!, /^src\/Money\.php: the edit adds a suppression `@phpstan-ignore-next-line` \(line 5\), which would hide what phpstan reports/);
  });
});
