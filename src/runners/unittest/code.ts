// unittest's code: its output parser, its narrowing by dotted names, coverage.py around `python -m unittest`.
import type { RunnerCode } from '../runner';
import { unittestParser } from './parser';
import { narrowUnittest } from './narrow';
import { unittestPlan } from './coverage';

export const unittestCode: RunnerCode = {
  parsers: [unittestParser],
  // Django's runner is started by `test` after manage.py (or django-admin); unittest's by `-m unittest`.
  narrow: (args, targets, { command, prefix }) => narrowUnittest(args, targets, command, prefix[prefix.length - 1] === 'test'),
  coverage: unittestPlan,
};
