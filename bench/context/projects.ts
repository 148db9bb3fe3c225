// The real projects bench:context injects bugs into: each pinned at a commit of its public GitHub repository (fetched
// as a mirror; GREENLOOP_BENCH_MIRRORS moves where they are looked for), with its own tests and test command unchanged
// but for the runner's path. None of the projects issue 31 names, so the figure is not tuned to them.
export type Language = 'JavaScript' | 'TypeScript' | 'Python' | 'Go';

export interface Project {
  name: string;
  language: Language;
  /** owner/name on GitHub. */
  repo: string;
  commit: string;
  /** The npm runner (from test/fixtures/targeted/install-runners.sh) linked in as node_modules; none for Python and Go. */
  runner?: 'mocha' | 'vitest';
  /** npm packages the project's own configuration loads (beside the runner), installed once into the cache. */
  packages?: readonly string[];
  /** As `--test-cmd` gets it. */
  testCmd: string;
}

export const PROJECTS: readonly Project[] = [
  { name: 'bytes', language: 'JavaScript', repo: 'visionmedia/bytes.js', commit: '9ddc13b6c66e0cb293616fba246e05db4b6cef4d', runner: 'mocha', testCmd: 'node_modules/.bin/mocha --check-leaks --reporter spec' },
  { name: 'ufo', language: 'TypeScript', repo: 'unjs/ufo', commit: '11308c0bb5cb4a4bc3bfcbdc5c03177b097423e6', runner: 'vitest', testCmd: 'node_modules/.bin/vitest run' },
  { name: 'cookie', language: 'TypeScript', repo: 'jshttp/cookie', commit: '51c485421a95ee796de6d8dab53a5ade0a20db8a', runner: 'vitest', packages: ['@borderless/ts-scripts@0.15.0'], testCmd: 'node_modules/.bin/vitest run' },
  { name: 'cachetools', language: 'Python', repo: 'tkem/cachetools', commit: '28d4506f2a49d781ffbcecb095fa7aba5bb80aff', testCmd: 'PYTHONPATH=src python3 -m pytest -v -p no:cacheprovider tests' },
  { name: 'more-itertools', language: 'Python', repo: 'more-itertools/more-itertools', commit: '2fe1b2eeb9d75f994113fe3ac76d14b6bcd6fb10', testCmd: 'python3 -m pytest -v -p no:cacheprovider tests' },
  { name: 'go-humanize', language: 'Go', repo: 'dustin/go-humanize', commit: '4d1d9082551ec085912e7d2253a33ae547fca000', testCmd: 'go test -v ./...' },
];
