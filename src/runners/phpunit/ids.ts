// PHPUnit's test names → the contract's title path: `Acme\Money\MoneyTest::testAdd with data set #1` (console) and
// `<testcase name="testAdd with data set #1" classname="Acme.Money.MoneyTest">` (JUnit) are both
// `Acme\Money\MoneyTest > testAdd > data set #1`; a named data set is `data set "negative amount"`, quotes kept.
// The class keeps its namespace with PHP's backslashes: two classes of one short name in two folders stay two tests,
// and the name is the one `--filter` selects by.
import type { JunitCase, JunitDialect } from '../runner';

const DATA_SET = /^(\w+) with data set (#\d+|".*")$/s;

/** `Class`, `method` and the data set (`#1`, `"name"`) of an ID, or null when the ID is not PHPUnit's. */
export interface PhpunitTest {
  className: string;
  method: string;
  dataSet: string | null;
}

/** `method with data set "name"` (PHPUnit's getName(), without the data) split into the method and its data set. */
export function splitName(name: string): { method: string; dataSet: string | null } {
  const ds = DATA_SET.exec(name);
  return ds ? { method: ds[1], dataSet: ds[2] } : { method: name, dataSet: null };
}

export function phpunitId(className: string, name: string): string {
  const { method, dataSet } = splitName(name);
  return dataSet === null ? `${className} > ${method}` : `${className} > ${method} > data set ${dataSet}`;
}

/** The parts of an ID this room made; null for one it did not. */
export function parseId(id: string): PhpunitTest | null {
  const first = id.indexOf(' > ');
  if (first < 0) return null;
  const className = id.slice(0, first);
  const rest = id.slice(first + 3);
  const ds = / > data set (#\d+|".*")$/s.exec(rest);
  const method = ds ? rest.slice(0, ds.index) : rest;
  if (!/^[A-Za-z_\x80-\uffff\\][\w\x80-\uffff\\]*$/.test(className) || !/^\w+$/.test(method)) return null;
  return { className, method, dataSet: ds ? ds[1] : null };
}

/**
 * PHPUnit's JUnit log: `classname` is the class with dots for backslashes (PHP class names have no dots); a test
 * PHPUnit made up for a data provider that failed (`name="Error"`, no class) sits in a suite named `Class::method`.
 */
export const phpunitJunit: JunitDialect = {
  id(test: JunitCase): string {
    if (!test.classname) {
      const m = /^(.+)::(\w+)$/.exec(test.suite);
      if (m) return `${m[1]} > ${m[2]}`;
      return test.name;
    }
    return phpunitId(test.classname.replace(/\./g, '\\'), test.name);
  },
  loadError: parseErrorIn,
};

/** `ParseError: …` then the file and line of the class that does not parse, in a test's failure message. */
export function parseErrorIn(message: string): { file: string; line: number; message: string } | null {
  const m = /^ParseError: (.*)\n+(\S.*\.php):(\d+)$/m.exec(message);
  return m ? { file: m[2], line: Number(m[3]), message: `ParseError: ${m[1]}` } : null;
}
