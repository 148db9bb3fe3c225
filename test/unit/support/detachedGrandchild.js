// Test helper: starts a grandchild in its own session (it leaves our process group) that ignores SIGTERM.
// Once its handler is in place the grandchild writes {parent, grandchild} pids to the file named in argv[2].
const { spawn } = require('child_process');

const grandchildCode = `
  process.on('SIGTERM', () => {});
  require('fs').writeFileSync(process.argv[1], JSON.stringify({ parent: Number(process.argv[2]), grandchild: process.pid }));
  setInterval(() => {}, 1e6);
`;
spawn(process.execPath, ['-e', grandchildCode, process.argv[2], String(process.pid)], { detached: true, stdio: 'ignore' });
console.log('grandchild started');
setInterval(() => {}, 1e6);
