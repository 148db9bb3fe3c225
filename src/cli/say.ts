// Every line the CLI prints for a person: file names from a model's edit, test names from a runner, notes and
// error messages all carry text Greenloop did not write, so each line is shown escaped (see forTerminal).
import { forTerminal } from '../base/terminalText';

export function say(line: string): void {
  process.stderr.write(`${forTerminal(line)}\n`);
}
