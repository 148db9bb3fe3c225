// RSpec's JUnit XML, as rspec_junit_formatter writes it (`--format RspecJunitFormatter`): classname the spec file as a
// dotted path (`spec.inflect.words_spec`), name the full description, `file` the spec file. The ID is the console's:
// the full description split at its groups, read from the spec file (outline.ts); the report gives no line, so the
// deepest chain of groups whose descriptions start the full description is taken.
import type { JunitCase, JunitDialect } from '../runner';
import { rubyPath } from '../common/ruby';
import { SpecOutlines } from './outline';

const outlines = new Map<string, SpecOutlines>();

function outlinesIn(cwd: string | undefined): SpecOutlines {
  const key = cwd ?? '';
  let o = outlines.get(key);
  if (!o) {
    o = new SpecOutlines(cwd);
    outlines.set(key, o);
  }
  return o;
}

function fileOf(test: JunitCase): string | undefined {
  if (test.file) return test.file;
  return test.classname ? `./${test.classname.replace(/\./g, '/')}.rb` : undefined;
}

export const rspecJunit: JunitDialect = {
  id: (test) => outlinesIn(test.cwd).titles(fileOf(test), undefined, test.name).join(' > '),
  file: (test) => {
    const f = fileOf(test);
    return f ? rubyPath(f, test.cwd) : undefined;
  },
};
