// Following Java imports from a failing test: a class import, a static import, a wildcard, a nested class, and the
// test's own package's classes it names without importing, across the Maven source roots and a second module.
import * as assert from 'assert';
import { TempWorkspace } from './workspace';

describe('import reach: Java', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = new TempWorkspace();
  });
  afterEach(() => ws.dispose());

  it('src/test/java reaches src/main/java by package, the same package by name, and another module\'s classes', async () => {
    ws.write({
      'pom.xml': '<project/>',
      'core/src/main/java/org/shop/Cart.java': 'package org.shop;\n\nimport org.shop.pricing.*;\nimport org.shop.util.Money.Cents;\nimport static org.shop.util.Strings.pad;\n\npublic class Cart {\n  int total() { return Discounts.apply(pad(1)); }\n}\n',
      'core/src/main/java/org/shop/Unused.java': 'package org.shop;\n\nclass Unused {}\n',
      'core/src/main/java/org/shop/pricing/Discounts.java': 'package org.shop.pricing;\n\npublic class Discounts { public static int apply(int c) { return c; } }\n',
      'core/src/main/java/org/shop/pricing/Rates.java': 'package org.shop.pricing;\n\nclass Rates {}\n',
      'util/src/main/java/org/shop/util/Money.java': 'package org.shop.util;\n\npublic class Money { public static class Cents {} }\n',
      'util/src/main/java/org/shop/util/Strings.java': 'package org.shop.util;\n\npublic final class Strings { public static int pad(int x) { return x; } }\n',
      'core/src/test/java/org/shop/CartTest.java': 'package org.shop;\n\nimport java.util.List;\nimport org.junit.jupiter.api.Test;\n\nclass CartTest {\n  @Test void totals() { Cart cart = new Cart(); cart.total(); }\n}\n',
    });
    const reached = await ws.reach(['core/src/test/java/org/shop/CartTest.java']);
    assert.deepStrictEqual(reached.map((f) => `${f.path}@${f.distance}`), [
      'core/src/test/java/org/shop/CartTest.java@0',
      'core/src/main/java/org/shop/Cart.java@1',
      'util/src/main/java/org/shop/util/Strings.java@2',
      'core/src/main/java/org/shop/pricing/Discounts.java@2',
      'core/src/main/java/org/shop/pricing/Rates.java@2',
      'util/src/main/java/org/shop/util/Money.java@2',
    ]);
    assert.deepStrictEqual(reached[1]!.symbols, ['Cart']);
    assert.deepStrictEqual(reached.find((f) => f.path.endsWith('Strings.java'))!.symbols, ['pad']);
  });
});
