// Greenloop's version, as package.json says. The bundles get it from esbuild.js (a constant replaced at build time);
// run from source (tests under tsx) it is read from the package.json two folders up.
import * as fs from 'fs';
import * as path from 'path';

declare const GREENLOOP_VERSION: string | undefined;

export const VERSION: string = typeof GREENLOOP_VERSION === 'string' ? GREENLOOP_VERSION : versionFromManifest();

function versionFromManifest(): string {
  return (JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
}
