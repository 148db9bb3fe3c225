// A small but real agent CLI for tests: reads its task on stdin, talks Chat Completions to $OPENAI_BASE_URL, and
// does what each answer says until an answer says nothing it can do (as every agent loop ends its turn):
//   WRITE <path>\n<content>   writes the file            READ <path>   sends the file back
//   RUN <command>             runs it, sends the output   SLEEP <s>     sleeps (a slow agent)
//   EXIT <code>               exits with that code at once
// MINI_AGENT_STUBBORN=1 keeps asking even after an answer it cannot act on (an agent that never stops by itself).
'use strict';
const fs = require('fs');
const path = require('path');
const { execSync } = require('child_process');

async function main() {
  const task = fs.readFileSync(0, 'utf8');
  const base = process.env.OPENAI_BASE_URL;
  const messages = [{ role: 'user', content: task }];
  for (;;) {
    const res = await fetch(`${base}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${process.env.OPENAI_API_KEY || ''}` },
      body: JSON.stringify({ model: process.env.OPENAI_MODEL || 'scripted', messages }),
    });
    if (!res.ok) {
      console.error(`model error ${res.status}`);
      process.exit(1);
    }
    const content = String((await res.json()).choices[0].message.content || '');
    messages.push({ role: 'assistant', content });
    const [head, ...rest] = content.split('\n');
    const [verb, ...args] = head.split(' ');
    const arg = args.join(' ');
    let result;
    if (verb === 'WRITE') {
      fs.mkdirSync(path.dirname(arg), { recursive: true });
      fs.writeFileSync(arg, rest.join('\n'));
      result = `wrote ${arg}`;
    } else if (verb === 'READ') {
      result = fs.readFileSync(arg, 'utf8');
    } else if (verb === 'RUN') {
      try {
        result = execSync(arg, { encoding: 'utf8', stdio: 'pipe' });
      } catch (err) {
        result = `${err.stdout || ''}${err.stderr || ''}`;
      }
    } else if (verb === 'SLEEP') {
      await new Promise((r) => setTimeout(r, Number(arg) * 1000));
      result = 'slept';
    } else if (verb === 'EXIT') {
      console.log(`exiting with ${arg}`);
      process.exit(Number(arg));
    } else {
      console.log(content);
      if (process.env.MINI_AGENT_STUBBORN !== '1') return;
      result = 'go on';
    }
    messages.push({ role: 'user', content: result });
  }
}

main().catch((err) => {
  console.error(err.message);
  process.exit(1);
});
