// Following Rust modules from a failing test: `mod`, `use crate::`, `super::`, and a crate's integration tests
// into its library, on a real crate that cargo checks first.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as path from 'path';
import { TempWorkspace } from './workspace';

const CARGO = [path.join(process.env.HOME ?? '/root', '.cargo/bin/cargo'), 'cargo'].find((c) => {
  try {
    execFileSync(c, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
});

describe('import reach: Rust', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = new TempWorkspace();
  });
  afterEach(() => ws.dispose());

  it("a crate's integration test calls the public API, which reaches src/eval.rs through mod and pub use", async function () {
    ws.write({
      'Cargo.toml': '[package]\nname = "tiny-calc"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
      'src/lib.rs': 'mod eval;\nmod impls;\npub mod parse;\n\npub use eval::evaluate;\n',
      'src/eval.rs': 'use crate::parse::Expr;\nuse super::impls::Apply;\n\npub fn evaluate(src: &str) -> i64 {\n    let e = crate::parse::parse(src);\n    e.apply()\n}\n\n#[allow(dead_code)]\nfn unused(_: Expr) {}\n',
      'src/impls.rs': 'use crate::parse::Expr;\n\npub trait Apply {\n    fn apply(&self) -> i64;\n}\n\nimpl Apply for Expr {\n    fn apply(&self) -> i64 {\n        self.0\n    }\n}\n',
      'src/parse.rs': 'pub struct Expr(pub i64);\n\npub fn parse(s: &str) -> Expr {\n    Expr(s.len() as i64)\n}\n',
      'tests/api.rs': 'use tiny_calc::evaluate;\n\n#[test]\nfn adds() {\n    assert_eq!(evaluate("12"), 2);\n}\n',
    });
    if (CARGO) {
      this.timeout(120_000);
      execFileSync(CARGO, ['check', '--tests', '--offline', '--quiet'], { cwd: ws.root, stdio: 'pipe', env: { ...process.env, CARGO_TARGET_DIR: path.join(ws.root, 'target') } });
    }
    const reached = await ws.reach(['tests/api.rs']);
    assert.deepStrictEqual(reached.map((f) => `${f.path}@${f.distance}`), ['tests/api.rs@0', 'src/lib.rs@1', 'src/eval.rs@2', 'src/impls.rs@2', 'src/parse.rs@2']);
    assert.deepStrictEqual(reached[1].symbols, ['evaluate']);
  });

  it('mod x; finds x.rs, x/mod.rs, a nested x/y.rs under a non-root module, and #[path]', async () => {
    ws.write({
      'Cargo.toml': '[package]\nname = "m"\nversion = "0.1.0"\n',
      'src/main.rs': 'mod a;\nmod b;\n#[path = "generated/c_impl.rs"]\nmod c;\nmod inline { fn f() {} }\nmod missing;\nfn main() {}\n',
      'src/a.rs': 'mod nested;\n',
      'src/a/nested.rs': '',
      'src/b/mod.rs': 'pub mod d;\n',
      'src/b/d.rs': '',
      'src/generated/c_impl.rs': '',
    });
    assert.deepStrictEqual(await ws.order(['src/main.rs']), ['src/main.rs@0', 'src/a.rs@1', 'src/b/mod.rs@1', 'src/generated/c_impl.rs@1', 'src/a/nested.rs@2', 'src/b/d.rs@2']);
  });

  it('use crate::a::b::Item, super::, self::, and a path written in a call (the module defining what is called first); std and other crates are not files here', async () => {
    ws.write({
      'Cargo.toml': '[package]\nname = "u"\nversion = "0.1.0"\n',
      'src/lib.rs': 'pub mod a;\npub mod top;\n',
      'src/a/mod.rs': 'pub mod b;\npub mod sib;\n',
      'src/a/b.rs': 'use std::fmt;\nuse serde::Serialize;\nuse super::sib::Helper;\nuse self::inner_fn as _x;\nuse crate::{top::Top, a::sib};\npub fn go() { crate::top::run(); }\nfn inner_fn() {}\n',
      'src/a/sib.rs': 'pub struct Helper;\n',
      'src/top.rs': 'pub struct Top;\npub fn run() {}\n',
    });
    const reached = await ws.reach(['src/a/b.rs'], 1);
    assert.deepStrictEqual(reached.map((f) => f.path), ['src/a/b.rs', 'src/top.rs', 'src/a/sib.rs']);
    assert.deepStrictEqual(reached.find((f) => f.path === 'src/top.rs')!.symbols, ['Top', 'run']);
  });
});
