// go test: plain, -v and -json output, IDs split on "/" without the package; a package that does not build, a panic;
// narrowed to packages and an anchored -run; measured with -coverprofile.
import type { Runner } from '../runner';

export const go: Runner = {
  name: 'go',
  formats: ['go'],
  startsAt: (w, i) => (/(^|\/)go$/.test(w[i]) && w[i + 1] === 'test' ? i + 2 : null),
  files: { tests: ['**/*_test.go', '**/testdata/**'], config: [] },
  // A package pattern that matched nothing, a folder without Go files or that does not exist (exit code 1).
  noTests: [
    /^go: warning: "[^"\n]+" matched no packages$(?=[\s\S]*^no packages to test$)/m,
    /^no packages to test$/m,
    /^no Go files in \S.*$/m,
    /^pattern \S+: lstat \S+: no such file or directory$/m,
    /^stat \S.*: directory not found$/m,
  ],
  testFunction: /^Test\w+$/,
  // go names a failing test's file by its base name: its package is found among the workspace's files.
  narrowNeedsFiles: true,
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  code: () => (require('./code') as typeof import('./code')).goCode,
};
