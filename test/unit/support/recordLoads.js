// Preloaded (node --require) into a CLI process by tests: on exit, writes to $GREENLOOP_TEST_LOADS which bundle files
// the process loaded and which modules of the shared chunks (dist/base.js, dist/runtime.js) it evaluated.
'use strict';
const fs = require('fs');
const Module = require('module');
const files = new Set();
const keys = new Set();
const original = Module.prototype.require;
Module.prototype.require = function (id) {
  const exported = original.apply(this, arguments);
  if (!/^\.\/(base|runtime)\.js$/.test(id)) return exported;
  return new Proxy(exported, {
    get(target, key) {
      if (typeof key === 'string') keys.add(key);
      return target[key];
    },
  });
};
process.on('exit', () => {
  for (const f of Object.keys(require.cache)) files.add(f);
  fs.writeFileSync(process.env.GREENLOOP_TEST_LOADS, JSON.stringify({ files: [...files], keys: [...keys] }));
});
