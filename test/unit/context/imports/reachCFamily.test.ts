// Following C and C++ includes from a failing test: `"x.h"` beside the file, `<x.h>` and `"x.h"` on the include path
// compile_commands.json gives (-I, -isystem, relative to each entry's directory), and each header's source.
import * as assert from 'assert';
import * as path from 'path';
import { TempWorkspace } from './workspace';

describe('import reach: C and C++', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = new TempWorkspace();
  });
  afterEach(() => ws.dispose());

  it('compile_commands.json in build/ gives the include path; a header reaches the source the build compiles', async () => {
    ws.write({
      'include/calc/calc.h': '#pragma once\n#include "calc/detail.hpp"\nint add(int a, int b);\n',
      'include/calc/detail.hpp': '#pragma once\nint detail_twice(int);\n',
      'lib/calc.cpp': '#include <calc/calc.h>\nint add(int a, int b) { return a + b; }\n',
      'lib/detail.cpp': '#include "calc/detail.hpp"\nint detail_twice(int x) { return 2 * x; }\n',
      'tests/local.h': '#pragma once\n',
      'tests/calc_test.cpp': '#include <vector>\n#include <calc/calc.h>\n#include "local.h"\n#include "missing.h"\nint main() { return add(1, 2) == 3 ? 0 : 1; }\n',
    });
    ws.write({
      'build/compile_commands.json': JSON.stringify([
        { directory: path.join(ws.root, 'build'), arguments: ['c++', '-isystem', '/usr/include', `-I${path.join(ws.root, 'include')}`, '-c', '../lib/calc.cpp'], file: '../lib/calc.cpp' },
        { directory: path.join(ws.root, 'build'), command: 'c++ -I ../include -c ../lib/detail.cpp', file: path.join(ws.root, 'lib/detail.cpp') },
      ]),
    });
    assert.deepStrictEqual(await ws.order(['tests/calc_test.cpp']), [
      'tests/calc_test.cpp@0', 'include/calc/calc.h@1', 'lib/calc.cpp@1', 'tests/local.h@1', 'include/calc/detail.hpp@2', 'lib/detail.cpp@2',
    ]);
  });

  it('without a compilation database: beside the file, include/, and x.h paired with x.c beside it', async () => {
    ws.write({
      'include/ring.h': 'int ring_next(int);\n',
      'src/ring.c': '#include "ring.h"\nint ring_next(int i) { return i + 1; }\n',
      'src/util.h': 'int util(void);\n',
      'src/util.c': 'int util(void) { return 0; }\n',
      'src/main.c': '#include "ring.h"\n#include "util.h"\nint main(void) { return ring_next(util()); }\n',
    });
    assert.deepStrictEqual(await ws.order(['src/main.c'], 1), ['src/main.c@0', 'include/ring.h@1', 'src/ring.c@1', 'src/util.h@1', 'src/util.c@1']);
  });
});
