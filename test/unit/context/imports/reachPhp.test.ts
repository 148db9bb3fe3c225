// Following PHP from a failing test: `use` through composer.json's PSR-4 map (autoload and autoload-dev, the longest
// prefix first), classes of the file's own namespace named without a `use`, and require/include of literal paths.
import * as assert from 'assert';
import { TempWorkspace } from './workspace';

describe('import reach: PHP', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = new TempWorkspace();
  });
  afterEach(() => ws.dispose());

  it('use, grouped use, same-namespace classes and require __DIR__', async () => {
    ws.write({
      'composer.json': JSON.stringify({ autoload: { 'psr-4': { 'Acme\\Money\\': 'src/', 'Acme\\Money\\Exchange\\': ['lib/exchange/'] } }, 'autoload-dev': { 'psr-4': { 'Acme\\Money\\Tests\\': 'tests/' } } }),
      'src/Money.php': "<?php\nnamespace Acme\\Money;\n\nfinal class Money { public function in(Currency $c): self { return new Money(Rates::of($c)); } }\n",
      'src/Currency.php': "<?php\nnamespace Acme\\Money;\n\nenum Currency { case EUR; }\n",
      'src/Rates.php': "<?php\nnamespace Acme\\Money;\n\nfinal class Rates { public static function of($c) { return 1; } }\n",
      'lib/exchange/Converter.php': "<?php\nnamespace Acme\\Money\\Exchange;\n\nfinal class Converter {}\n",
      'tests/helpers.php': "<?php\nfunction cents(int $n): int { return $n; }\n",
      'tests/MoneyTest.php': "<?php\nnamespace Acme\\Money\\Tests;\n\nuse Acme\\Money\\{Money, Currency};\nuse Acme\\Money\\Exchange\\Converter as Conv;\nuse PHPUnit\\Framework\\TestCase;\n\nrequire_once __DIR__ . '/helpers.php';\n\nfinal class MoneyTest extends TestCase {\n  public function testIn(): void { $this->assertNotNull((new Money())->in(Currency::EUR)); }\n}\n",
    });
    const reached = await ws.reach(['tests/MoneyTest.php']);
    assert.deepStrictEqual(reached.map((f) => `${f.path}@${f.distance}`), [
      'tests/MoneyTest.php@0', 'src/Money.php@1', 'src/Currency.php@1', 'lib/exchange/Converter.php@1', 'tests/helpers.php@1', 'src/Rates.php@2',
    ]);
    assert.deepStrictEqual(reached[1]!.symbols, ['Money']);
  });

  it('no composer.json (a hand-written autoloader): the PSR-4 layout under src/, the vendor namespace dropped', async () => {
    ws.write({
      'autoload.php': "<?php\nspl_autoload_register(function ($c) { require __DIR__ . '/src/' . str_replace('\\\\', '/', substr($c, 8)) . '.php'; });\n",
      'src/Inflector/Plural.php': "<?php\nnamespace Textkit\\Inflector;\n\nfinal class Plural {}\n",
      'tests/Inflector/PluralTest.php': "<?php\nnamespace Textkit\\Tests\\Inflector;\n\nuse Textkit\\Inflector\\Plural;\n\nfinal class PluralTest { public function testIt() { new Plural(); } }\n",
    });
    assert.deepStrictEqual(await ws.order(['tests/Inflector/PluralTest.php'], 1), ['tests/Inflector/PluralTest.php@0', 'src/Inflector/Plural.php@1']);
  });
});
