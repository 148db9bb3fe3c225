// PHPUnit's code: its console parser, its narrowing by --filter, its JUnit dialect. No coverage: PHPUnit measures
// through Xdebug or PCOV, neither of which Debian's php-cli carries.
import type { RunnerCode } from '../runner';
import { phpunitParser } from './parser';
import { narrowPhpunit } from './narrow';
import { phpunitJunit } from './ids';

export const phpunitCode: RunnerCode = {
  parsers: [phpunitParser],
  narrow: (args, targets) => narrowPhpunit(args, targets),
  coverage: () => ({ why: 'PHPUnit measures coverage through Xdebug or PCOV, and Greenloop does not drive them yet' }),
  junit: phpunitJunit,
};
