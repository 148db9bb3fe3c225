// The escalation panel in the browser: fills the host's HTML shell with a run's data and turns buttons into typed
// messages. Plain DOM and textContent only; the one piece of markup (the chart) is parsed as SVG, never as HTML.
import type { DiffSide, ExtraBudgetInput, PanelData, WebviewMessage } from '../shared/protocol';
import { describeGrant, parseExtraBudget, parseHostMessage } from '../shared/protocol';
import { chartModel, renderChartSvg } from './failingChart';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const post = (message: WebviewMessage) => vscode.postMessage(message);

function el<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`The panel is missing #${id}.`);
  return found as T;
}

const ui = {
  app: el('app'),
  heading: el('heading'),
  meta: el('run-meta'),
  reason: el('reason'),
  reasonDetail: el('reason-detail'),
  advice: el('advice'),
  setupActions: el('setup-actions'),
  hints: el('hints'),
  chart: el('chart'),
  form: el<HTMLFormElement>('retry-form'),
  hint: el<HTMLTextAreaElement>('hint'),
  iterations: el<HTMLInputElement>('extra-iterations'),
  tokens: el<HTMLInputElement>('extra-tokens'),
  minutes: el<HTMLInputElement>('extra-minutes'),
  grant: el('grant-summary'),
  retry: el<HTMLButtonElement>('retry'),
  flaky: el('flaky'),
  casts: el('casts'),
  castList: el('cast-list'),
  rollbackBest: el<HTMLButtonElement>('rollback-best'),
  rollbackBaseline: el<HTMLButtonElement>('rollback-baseline'),
  accept: el<HTMLButtonElement>('accept'),
  close: el<HTMLButtonElement>('close'),
  status: el('status'),
  workspace: el('workspace'),
  changed: el('changed-files'),
  failingSummary: el('failing-summary'),
  failingTests: el('failing-tests'),
  hypotheses: el('hypotheses'),
  candidates: el('candidates'),
  candidatesHeading: el('candidates-heading'),
  candidatesSummary: el('candidates-summary'),
  candidateList: el('candidate-list'),
  output: el('output'),
};

let current: PanelData | undefined;
let busy = false;
/** Budget fields are filled with defaults once per run, so a live update never overwrites what the person typed. */
let defaultsFor: string | undefined;

function setText(node: HTMLElement, text: string): void {
  node.textContent = text;
}

function make(tag: string, className: string, text: string): HTMLElement {
  const node = document.createElement(tag);
  if (className) node.className = className;
  node.textContent = text;
  return node;
}

function readExtra(): ExtraBudgetInput | null {
  const num = (input: HTMLInputElement) => (input.value.trim() === '' ? Number.NaN : Number(input.value));
  return parseExtraBudget({ iterations: num(ui.iterations), tokens: num(ui.tokens), minutes: num(ui.minutes) });
}

function updateGrant(): void {
  const extra = readExtra();
  const invalid = extra === null;
  ui.grant.textContent = invalid
    ? 'Enter at least 1 attempt, and whole numbers of 0 or more for tokens and minutes.'
    : describeGrant(extra);
  ui.grant.classList.toggle('error', invalid);
  for (const input of [ui.iterations, ui.tokens, ui.minutes]) input.setAttribute('aria-invalid', String(invalid && !input.checkValidity()));
  ui.retry.disabled = busy || invalid || !current?.actions.retry;
}

function updateButtons(): void {
  // The host says which actions fit the run as it is now (e.g. no roll back to the state the workspace is at).
  const can = current?.actions;
  ui.rollbackBest.disabled = busy || !can?.rollbackBest;
  ui.rollbackBaseline.disabled = busy || !can?.rollbackBaseline;
  ui.accept.disabled = busy || !can?.accept;
  ui.app.setAttribute('aria-busy', String(busy));
  updateGrant();
}

function renderChart(data: PanelData): void {
  const svg = new DOMParser().parseFromString(renderChartSvg(chartModel(data.points)), 'image/svg+xml').documentElement;
  ui.chart.replaceChildren(document.importNode(svg, true));
}

function diffButton(path: string, side: DiffSide, label: string): HTMLButtonElement {
  const b = make('button', 'diff-button', label) as HTMLButtonElement;
  b.type = 'button';
  b.setAttribute('aria-label', `${label}: ${path}`);
  b.addEventListener('click', () => post({ type: 'openDiff', path, side }));
  return b;
}

function renderChanged(data: PanelData): void {
  if (!data.changedFiles.length) {
    ui.changed.replaceChildren(make('li', 'muted', 'No file differs from the baseline.'));
    return;
  }
  ui.changed.replaceChildren(...data.changedFiles.map((f) => {
    const li = document.createElement('li');
    li.append(make('span', 'path', f.path));
    if (f.baselineToBest) li.append(diffButton(f.path, 'baseline-best', 'Baseline ↔ best'));
    if (f.bestToNow) li.append(diffButton(f.path, 'best-now', 'Best ↔ now'));
    return li;
  }));
}

function renderFailing(data: PanelData): void {
  setText(ui.failingSummary, data.finalText);
  ui.failingTests.replaceChildren(...data.failingTests.map((t) => make('li', '', t)));
}

function renderHypotheses(data: PanelData): void {
  if (!data.hypotheses.length) {
    ui.hypotheses.replaceChildren(make('li', 'muted', 'No attempts were made.'));
    return;
  }
  ui.hypotheses.replaceChildren(...data.hypotheses.map((h) => {
    const li = document.createElement('li');
    li.value = h.n;
    li.append(make('span', `verdict ${h.verdict}`, `${h.verdictText} · ${h.countsText}`));
    li.append(make('p', 'hypothesis', h.fixersText ?? (h.hypothesis || 'The model gave no hypothesis.')));
    if (h.agentText) li.append(make('p', 'agent muted', h.agentText));
    if (h.reverted?.length) {
      const put = make('ul', 'reverted', '');
      put.setAttribute('aria-label', `Files put back after attempt ${h.n}`);
      put.append(...h.reverted.map((r) => make('li', '', `Put back: ${r}`)));
      li.append(put);
    }
    if (h.outsideWarnings?.length) {
      const left = make('ul', 'outside', '');
      left.setAttribute('aria-label', `Changed outside the workspace during attempt ${h.n}, left as it is`);
      left.append(...h.outsideWarnings.map((w) => make('li', '', `Left as it is (Greenloop can neither undo it nor tell who did it): ${w}`)));
      li.append(left);
    }
    if (h.castWarnings?.length) {
      const casts = make('ul', 'casts', '');
      casts.setAttribute('aria-label', `Casts added by attempt ${h.n} to check`);
      casts.append(...h.castWarnings.map((c) => make('li', '', `Cast to check: ${c}`)));
      li.append(casts);
    }
    if (h.note) li.append(make('p', 'note muted', h.note));
    return li;
  }));
}

/** The last attempt's answers (`--candidates N`): which went on, what each trial said, and why each other lost. */
function renderCandidates(data: PanelData): void {
  const c = data.candidates;
  ui.candidates.hidden = !c;
  if (!c) return;
  setText(ui.candidatesHeading, `Answers of attempt ${c.n}`);
  setText(ui.candidatesSummary, c.summary);
  ui.candidateList.replaceChildren(...c.items.map((item) => {
    const li = document.createElement('li');
    li.value = item.k;
    li.append(make('span', `verdict ${item.verdict}`, `${item.verdictText}${item.chosen ? ' · chosen' : ''} · ${item.detail}`));
    if (item.files.length) li.append(make('p', 'files muted', `Files: ${item.files.join(', ')}`));
    if (item.note) li.append(make('p', 'note', item.note));
    if (item.lostBecause) li.append(make('p', 'lost muted', `Not chosen: ${item.lostBecause}`));
    return li;
  }));
}

/** A setup problem's fixes (Open Settings, Set API key…) lead, right under the reason, before Retry with hint. */
function renderSetupActions(data: PanelData): void {
  const actions = data.setupActions ?? [];
  ui.setupActions.hidden = actions.length === 0;
  ui.setupActions.replaceChildren(...actions.map((a, i) => {
    const button = make('button', i === 0 ? 'primary' : 'secondary', a.label) as HTMLButtonElement;
    button.type = 'button';
    button.addEventListener('click', () => post({ type: 'setupAction', id: a.id }));
    return button;
  }));
}

function render(data: PanelData): void {
  current = data;
  const title = data.running ? `Greenloop is running on ${data.folderName}` : `Greenloop: ${data.reasonTitle}`;
  setText(ui.heading, title);
  document.title = title;
  setText(ui.meta, `${data.folderName} · started ${new Date(data.startedAt).toLocaleString()} · `
    + `${data.countsText} · ${data.tokensUsed.toLocaleString('en-US')} tokens`);
  setText(ui.workspace, data.workspaceText);
  setText(ui.reason, data.reasonSentence);
  ui.reason.dataset.outcome = data.outcome;
  setText(ui.reasonDetail, data.reasonText);
  setText(ui.advice, data.advice);
  renderSetupActions(data);
  ui.hints.replaceChildren(...data.hints.map((h) => make('li', '', `Hint given: ${h}`)));
  ui.flaky.hidden = data.flaky.length === 0;
  setText(ui.flaky, data.flaky.length
    ? `Flaky: ${data.flaky.join(', ')} failed and then passed on a re-run of the same files, so ${data.flaky.length === 1 ? 'it counts' : 'they count'} neither as progress nor as regression.`
    : '');
  // A cast kept in the files may only hide the error the run was judged on: said where it cannot be missed.
  const casts = data.castWarnings ?? [];
  ui.casts.hidden = casts.length === 0;
  ui.castList.replaceChildren(...casts.map((c) => make('li', '', `Attempt ${c.n}: ${c.text}`)));
  renderChart(data);
  renderChanged(data);
  renderFailing(data);
  renderCandidates(data);
  renderHypotheses(data);
  setText(ui.output, data.outputExcerpt || '(no output captured)');
  if (defaultsFor !== data.runId) {
    defaultsFor = data.runId;
    ui.iterations.value = String(data.defaultExtra.iterations);
    ui.tokens.value = String(data.defaultExtra.tokens);
    ui.minutes.value = String(data.defaultExtra.minutes);
  }
  updateButtons();
}

function setStatus(message: string, level: 'info' | 'error'): void {
  ui.status.textContent = message;
  ui.status.classList.toggle('error', level === 'error');
}

ui.form.addEventListener('submit', (e) => {
  e.preventDefault();
  const extra = readExtra();
  if (!extra || busy || current?.running) {
    updateGrant();
    return;
  }
  post({ type: 'retry', hint: ui.hint.value, extra });
});
for (const input of [ui.iterations, ui.tokens, ui.minutes]) input.addEventListener('input', updateGrant);
ui.rollbackBest.addEventListener('click', () => post({ type: 'rollback', to: 'best' }));
ui.rollbackBaseline.addEventListener('click', () => post({ type: 'rollback', to: 'baseline' }));
ui.accept.addEventListener('click', () => post({ type: 'accept' }));
ui.close.addEventListener('click', () => post({ type: 'close' }));

window.addEventListener('message', (event: MessageEvent) => {
  const message = parseHostMessage(event.data);
  if (!message) return;
  if (message.type === 'show') render(message.data);
  else if (message.type === 'status') setStatus(message.message, message.level);
  else {
    busy = message.busy;
    updateButtons();
  }
});

updateGrant();
post({ type: 'ready' });
