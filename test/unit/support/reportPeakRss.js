// Preloaded into a CLI a test measures (node -r): at exit, writes the process's own peak resident set in kB
// (getrusage's ru_maxrss, what GNU time's %M reports) to $GREENLOOP_PEAK_RSS_FILE. Only this process is counted,
// not the test command or git it starts.
'use strict';
const fs = require('fs');

const file = process.env.GREENLOOP_PEAK_RSS_FILE;
if (file) process.on('exit', () => fs.writeFileSync(file, String(process.resourceUsage().maxRSS)));
