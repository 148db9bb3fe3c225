// dotnet test's code: its console and TRX parsers, its --filter narrowing, the JUnit logger's dialect. No coverage:
// no .NET SDK runs here (coverlet's collector would be the tool).
import type { RunnerCode } from '../runner';
import { dotnetParser } from './parser';
import { trxParser } from './trx';
import { narrowDotnet } from './narrow';
import { dotnetJunit } from './ids';

export const dotnetCode: RunnerCode = {
  parsers: [dotnetParser, trxParser],
  narrow: (args, targets) => narrowDotnet(args, targets),
  coverage: () => ({ why: 'Greenloop does not measure .NET coverage (coverlet) yet' }),
  junit: dotnetJunit,
};
