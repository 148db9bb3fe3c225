// An agent for the many-tests fixture (test/fixtures/projects/many-tests), run as `--actor-cmd`: it mends the broken
// record, and the first time also stops testing record UNTESTED (a test gone missing); told that a test no longer
// ran, it mends the record alone.
const fs = require('fs');

const prompt = fs.readFileSync(process.env.GREENLOOP_PROMPT_FILE, 'utf8');
const untested = /did not run at all|no longer ran/.test(prompt) ? [] : [Number(process.env.UNTESTED || 777)];
fs.writeFileSync('src/records.json', `${JSON.stringify({ broken: [], untested })}\n`);
