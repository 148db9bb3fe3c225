// A generated repository of `files` files: small TypeScript modules of varied length in pkgN/modM folders, and
// `big` files of 1 MB. Written once per folder (a `.complete` marker), so benchmarks can reuse it between runs.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

export function writeBigRepo(root: string, files: number, big = 5): void {
  if (fs.existsSync(path.join(root, '.complete'))) return;
  fs.rmSync(root, { recursive: true, force: true });
  let n = 0;
  for (let a = 0; n < files - big; a++) {
    for (let b = 0; b < 10 && n < files - big; b++) {
      const dir = path.join(root, `pkg${a}`, `mod${b}`);
      fs.mkdirSync(dir, { recursive: true });
      for (let c = 0; c < 100 && n < files - big; c++, n++) {
        const lines = 10 + (n * 7919) % 70;
        let s = '';
        for (let i = 0; i < lines; i++) s += `export const v${i} = ${createHash('md5').update(`${n}:${i}`).digest('hex')};\n`;
        fs.writeFileSync(path.join(dir, `file${c}.ts`), s);
      }
    }
  }
  for (let i = 0; i < big; i++) {
    const buf = Buffer.alloc(1 << 20);
    for (let o = 0; o < buf.length; o += 32) createHash('sha256').update(`${i}:${o}`).digest().copy(buf, o);
    fs.writeFileSync(path.join(root, 'pkg0', `big${i}.bin`), buf);
  }
  fs.writeFileSync(path.join(root, '.complete'), '');
  fs.writeFileSync(path.join(root, '.gitignore'), '.complete\n');
}
