// A test command as words, and back. Only what a narrowed command can be built from safely: plain words, quotes,
// backslashes, leading VAR=value assignments and `&&` between commands. Anything that makes the shell compute a word
// (variables, command substitution, pipes, redirections, `;`, `||`) is refused, because then the words Greenloop sees
// are not the words the runner gets.

/** One simple command of a `a && b` chain, as the words the program receives. */
export type Words = string[];

export type Split = { ok: true; commands: Words[] } | { ok: false; why: string };

const SPECIAL_OUTSIDE_QUOTES = new Map<string, string>([
  ['$', 'a shell variable or substitution'],
  ['`', 'a command substitution'],
  ['|', 'a pipe or `||`'],
  [';', 'a `;`'],
  ['<', 'a redirection'],
  ['>', 'a redirection'],
  ['(', 'a subshell'],
  [')', 'a subshell'],
  ['\n', 'more than one line'],
]);

export function splitCommand(command: string): Split {
  const commands: Words[] = [];
  let words: Words = [];
  let word = '';
  let inWord = false;
  const endWord = (): void => {
    if (inWord) words.push(word);
    word = '';
    inWord = false;
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) return { ok: false, why: 'the command has an unclosed quote' };
      word += command.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < command.length && command[j] !== '"'; j++) {
        const d = command[j];
        if (d === '$' || d === '`') return { ok: false, why: `the command computes a word (${SPECIAL_OUTSIDE_QUOTES.get(d)})` };
        if (d === '\\' && j + 1 < command.length && '"\\$`\n'.includes(command[j + 1])) {
          j++;
          if (command[j] !== '\n') word += command[j];
        } else word += d;
      }
      if (j >= command.length) return { ok: false, why: 'the command has an unclosed quote' };
      inWord = true;
      i = j;
    } else if (c === '\\') {
      if (i + 1 >= command.length) return { ok: false, why: 'the command ends with a backslash' };
      i++;
      if (command[i] !== '\n') {
        word += command[i];
        inWord = true;
      }
    } else if (c === ' ' || c === '\t') {
      endWord();
    } else if (c === '&') {
      if (command[i + 1] !== '&') return { ok: false, why: 'the command runs something in the background (`&`)' };
      endWord();
      if (words.length === 0) return { ok: false, why: 'the command has an empty part around `&&`' };
      commands.push(words);
      words = [];
      i++;
    } else if (c === '#' && !inWord) {
      return { ok: false, why: 'the command has a comment' };
    } else if (SPECIAL_OUTSIDE_QUOTES.has(c)) {
      return { ok: false, why: `the command has ${SPECIAL_OUTSIDE_QUOTES.get(c)}` };
    } else {
      word += c;
      inWord = true;
    }
  }
  endWord();
  if (words.length === 0) return { ok: false, why: commands.length ? 'the command ends with `&&`' : 'the command is empty' };
  commands.push(words);
  return { ok: true, commands };
}

const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** A word as the shell must see it to pass it unchanged: bare when it is plain, else in single quotes. */
export function quoteWord(word: string): string {
  if (PLAIN.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export function joinCommand(commands: readonly Words[]): string {
  return commands.map((words) => words.map(quoteWord).join(' ')).join(' && ');
}

/** `NAME=value` words before the program: they set its environment. */
export function isAssignment(word: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*=/.test(word);
}
