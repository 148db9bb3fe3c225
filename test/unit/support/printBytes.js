// Test helper: prints argv[2] / 64 numbered ASCII lines of exactly 64 bytes ("00000001 xxx…x\n"),
// so a test knows the exact byte count and what the first and last lines are.
const lines = Number(process.argv[2]) / 64;
const out = [];
for (let n = 1; n <= lines; n++) out.push(`${String(n).padStart(8, '0')} ${'x'.repeat(54)}\n`);
process.stdout.write(out.join(''));
