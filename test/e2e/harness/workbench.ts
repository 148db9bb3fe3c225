import type { Locator, Page } from 'playwright-core';
import { ceiling, seconds } from './patience';

/**
 * Helpers that drive the workbench the way a person does (palette, clicks, keys) and read back what they
 * would see. Selectors are VS Code 1.139's DOM; each is in one place here so a VS Code update touches one file.
 * Every timeout is what a quiet machine needs with room to spare, stretched by the load (patience.ts).
 */

const statusBar = '#workbench\\.parts\\.statusbar';

/** Keeps the browser on loopback: a fresh profile asks the extension gallery, and this machine has no network. */
export async function keepOnLoopback(page: Page): Promise<void> {
  await page.context().route(/^https?:\/\/(?!127\.0\.0\.1[:/]|localhost[:/])/, (route) => route.abort('blockedbyclient'));
}

/** Opens `folder` in the code-server at `url` and waits until the workbench and its extension host are up. */
export async function openWorkspace(page: Page, url: string, folder: string): Promise<void> {
  await keepOnLoopback(page);
  // As long as the workbench itself may take (below): on a busy machine the page's load event alone can pass 30 s.
  await page.goto(`${url}/?folder=${encodeURIComponent(folder)}`, { timeout: ceiling(90_000) });
  await waitForWorkbench(page);
}

/** Reloads the window (what "Developer: Reload Window" does in the browser) and waits for it to come back. */
export async function reloadWindow(page: Page): Promise<void> {
  await page.reload({ timeout: ceiling(90_000) });
  await waitForWorkbench(page);
}

/**
 * "Developer: Reload Window" from the palette. VS Code then saves its state (open editors, storage) before the page
 * goes; a browser reload (reloadWindow) may lose what changed in the last seconds, such as an editor just closed.
 */
export async function reloadWindowByCommand(page: Page): Promise<void> {
  const loaded = page.waitForEvent('load', { timeout: ceiling(90_000) });
  await runCommand(page, 'Developer: Reload Window');
  await loaded;
  await waitForWorkbench(page);
}

async function waitForWorkbench(page: Page): Promise<void> {
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: ceiling(90_000) });
  // The problems item is drawn once the workbench has restored its parts; extension contributions may still
  // be on their way, which runCommand and the eventually() reads tolerate.
  await page.locator(`${statusBar} #status\\.problems`).waitFor({ state: 'visible', timeout: ceiling(90_000) });
  // Playwright's own reads and clicks in the specs (a panel's text, a button) get the same patience.
  page.setDefaultTimeout(ceiling(30_000));
}

/**
 * Runs a command by its palette title ("Greenloop: Fix until green"). F1 opens the quick input with ">"
 * already typed; we replace the whole value so earlier text cannot leak in, wait until the highlighted row
 * is exactly that title, then press Enter. Right after the window opens the palette may not list extension
 * commands yet ("No matching commands", and it does not refresh), so we close it and ask again, as a person would.
 */
export async function runCommand(page: Page, title: string, quietMs = 30_000): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('input.input');
  const focusedRow = widget
    .locator('.quick-input-list .monaco-list-row.focused')
    .filter({ has: page.locator('.label-name', { hasText: exact(title) }) });
  const deadline = Date.now() + ceiling(quietMs);
  let offered: string[] = [];
  do {
    await page.keyboard.press('F1');
    try {
      // Inside the try: a view that takes the focus as the palette opens (an output channel that shows itself)
      // closes the palette again, and that is asked again too.
      await input.waitFor({ state: 'visible', timeout: ceiling(10_000) });
      await input.fill(`>${title}`, { timeout: ceiling(5_000) });
      await focusedRow.waitFor({ timeout: ceiling(3_000) });
    } catch {
      offered = await widget.locator('.quick-input-list .monaco-list-row').allInnerTexts();
      await page.keyboard.press('Escape');
      await widget.waitFor({ state: 'hidden', timeout: ceiling(5_000) }).catch(() => undefined);
      // A breath before asking again, while the window registers what it has not yet: not a wait for anything.
      await page.waitForTimeout(500);
      continue;
    }
    // Outside the retry: the command runs on Enter, and a second Enter would run it twice.
    await page.keyboard.press('Enter');
    await paletteClosed(page, ceiling(10_000));
    return;
  } while (Date.now() < deadline);
  throw new Error(`The command palette has no command "${title}"; it offered: ${JSON.stringify(offered.slice(0, 8))}.`);
}

/**
 * Waits until the command palette is gone: hidden, or replaced by the quick input the command opened (MCP: List
 * Servers, a model picker). On a busy machine the command's own list can take the widget over with no moment in
 * which it is hidden, so "hidden" alone would read a command that ran as one that did not — and run it again.
 */
async function paletteClosed(page: Page, timeoutMs: number): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('input.input');
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (!(await widget.isVisible())) return;
    const value = await input.inputValue({ timeout: 1_000 }).catch(() => undefined);
    if (value !== undefined && !value.startsWith('>')) return;
    await page.waitForTimeout(100);
  }
  throw new Error(`The command palette stayed open for ${seconds(timeoutMs)} after Enter.`);
}

/** Opens a file of the workspace in an editor through Quick Open, as a person types its name after Ctrl+P. */
export async function openFile(page: Page, relPath: string, quietMs = 30_000): Promise<void> {
  const timeoutMs = ceiling(quietMs);
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('input.input');
  const name = relPath.split('/').pop()!;
  await page.keyboard.press('F1');
  await input.waitFor({ state: 'visible', timeout: ceiling(10_000) });
  await input.fill(relPath);
  await widget.locator('.quick-input-list .monaco-list-row.focused').filter({ hasText: name }).waitFor({ timeout: timeoutMs });
  await page.keyboard.press('Enter');
  await page.locator('.tabs-container .tab.active').filter({ hasText: name }).waitFor({ timeout: timeoutMs });
}

/**
 * What the Problems item of the status bar says, from its accessible name ("Errors: 1, Warnings: 0"), as
 * { errors, warnings }; the counts every language server's diagnostics add up to in the Problems view.
 */
export async function problemsCounts(page: Page): Promise<{ errors: number; warnings: number; label: string }> {
  const item = page.locator(`${statusBar} [id="status.problems"]`);
  const label = (await item.locator('[aria-label]').first().getAttribute('aria-label').catch(() => null)) ?? (await item.innerText());
  const count = (word: string) => {
    if (/no problems/i.test(label)) return 0;
    const m = new RegExp(`${word}: (\\d+)`, 'i').exec(label);
    return m ? Number(m[1]) : NaN;
  };
  return { errors: count('errors'), warnings: count('warnings'), label };
}

/** Picks the row of the open quick input (a list some command opened) whose text matches `text`, as a person clicks it. */
export async function pickQuickInputRow(page: Page, text: string | RegExp, quietMs = 30_000): Promise<void> {
  const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  const row = rows.filter({ hasText: text }).first();
  try {
    await row.waitFor({ state: 'visible', timeout: ceiling(quietMs) });
  } catch {
    throw new Error(`The quick input has no row matching ${String(text)}; it shows ${JSON.stringify(await rows.allInnerTexts())}.`);
  }
  await row.click();
}

/**
 * Waits for a notification containing `text` and returns it (click its buttons with notificationButton): its toast,
 * or, when the toast came and went while the spec looked elsewhere (VS Code hides an information toast after 10 s, a
 * clock a busy machine can outrun), its entry in the notification center, which is then left open.
 */
export async function waitForNotification(page: Page, text: string | RegExp, quietMs = 30_000): Promise<Locator> {
  const toast = page.locator('.notifications-toasts .notification-toast').filter({ hasText: text }).first();
  const timeoutMs = ceiling(quietMs);
  try {
    await toast.waitFor({ state: 'visible', timeout: timeoutMs });
    return toast;
  } catch {
    const shown = await page.locator('.notifications-toasts .notification-toast').allInnerTexts();
    await runCommand(page, 'Notifications: Show Notifications');
    const center = page.locator('.notifications-center');
    await center.waitFor({ state: 'visible', timeout: ceiling(10_000) });
    const kept = center.locator('.notification-list-item').filter({ hasText: text }).first();
    if (await kept.isVisible()) return kept;
    const all = await center.locator('.notification-list-item-message').allInnerTexts();
    await runCommand(page, 'Notifications: Hide Notifications');
    throw new Error(`No notification matching ${String(text)} within ${seconds(timeoutMs)}; toasts shown: ${JSON.stringify(shown)}; in the notification center: ${JSON.stringify(all)}.`);
  }
}

export function notificationButton(toast: Locator, label: string): Locator {
  return toast.locator('.notification-list-item-buttons-container a.monaco-button', { hasText: exact(label) });
}

/**
 * Every message in the notification center, newest first: a toast without buttons hides after a while, and a run that
 * ends while the spec looks elsewhere may have shown its toast already; the center keeps them all.
 */
export async function notificationCenterMessages(page: Page): Promise<string[]> {
  await runCommand(page, 'Notifications: Show Notifications');
  const center = page.locator('.notifications-center');
  await center.waitFor({ state: 'visible', timeout: ceiling(10_000) });
  const messages = await center.locator('.notification-list-item-message').allInnerTexts();
  await runCommand(page, 'Notifications: Hide Notifications');
  return messages;
}

/** Closes every toast, so later screenshots and waits see only new ones. */
export async function clearNotifications(page: Page): Promise<void> {
  await runCommand(page, 'Notifications: Clear All Notifications');
}

/**
 * The text a person reads in the status bar. With `itemId` ("<publisher>.<name>.<id given to
 * createStatusBarItem>") only that item; codicons ($(sync~spin)) are drawn as icons and are not in the text.
 */
export async function statusBarText(page: Page, itemId?: string): Promise<string> {
  if (itemId === undefined) return (await page.locator(statusBar).innerText()).replace(/\s+/g, ' ').trim();
  const item = statusBarItem(page, itemId);
  if ((await item.count()) === 0) return '';
  return (await item.innerText()).replace(/\s+/g, ' ').trim();
}

export function statusBarItem(page: Page, itemId: string): Locator {
  return page.locator(`${statusBar} [id="${itemId}"]`);
}

/** Shows a view container by its activity bar title (the `title` of its viewsContainers entry). */
export async function openViewContainer(page: Page, title: string): Promise<void> {
  const action = page.locator(`.activitybar .action-item [aria-label^="${title}"]`).first();
  await action.waitFor({ state: 'visible', timeout: ceiling(30_000) });
  const checked = await action.evaluate((el) => el.closest('.action-item')?.classList.contains('checked') ?? false);
  if (!checked) await action.click();
}

export interface TreeRow {
  label: string;
  description: string;
  /** 1 for top-level items. */
  level: number;
  /** undefined for leaves. */
  expanded: boolean | undefined;
}

/** The rows a tree view shows right now (only rendered rows: expand items or scroll to see more). */
export function treeView(page: Page, viewName: string): Locator {
  return page.locator('.pane').filter({ has: page.locator('.pane-header h3.title', { hasText: exact(viewName) }) });
}

export async function treeRows(page: Page, viewName: string): Promise<TreeRow[]> {
  const view = treeView(page, viewName);
  await view.waitFor({ state: 'visible', timeout: ceiling(30_000) });
  return view.locator('.monaco-list-row').evaluateAll((rows) =>
    rows.map((row) => {
      const expandedAttr = row.getAttribute('aria-expanded');
      return {
        label: (row.querySelector('.label-name') as HTMLElement | null)?.innerText.trim() ?? '',
        description: (row.querySelector('.label-description') as HTMLElement | null)?.innerText.trim() ?? '',
        level: Number(row.getAttribute('aria-level') ?? '1'),
        expanded: expandedAttr === null ? undefined : expandedAttr === 'true',
      };
    }),
  );
}

function exact(text: string): RegExp {
  return new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
}

/** Clicks a tree row by its label, as a person expands a run to see its attempts. */
export async function clickTreeRow(page: Page, viewName: string, label: string | RegExp): Promise<void> {
  const name = typeof label === 'string' ? exact(label) : label;
  const row = treeView(page, viewName).locator('.monaco-list-row').filter({ has: page.locator('.label-name', { hasText: name }) }).first();
  await row.waitFor({ state: 'visible', timeout: ceiling(30_000) });
  const end = Date.now() + ceiling(30_000);
  for (;;) {
    try {
      await row.click({ timeout: ceiling(5_000) });
      break;
    } catch (err) {
      // The tooltip of the row clicked before opens under a pointer left on it and covers the rows below it.
      if (Date.now() > end) throw err;
      await movePointerOffTheSideBar(page);
      await page.keyboard.press('Escape');
    }
  }
  // A person moves on after clicking; a pointer left on the row would open its tooltip over the next row to click.
  await movePointerOffTheSideBar(page);
}

/** Rests the pointer in the editor area's bottom-right corner, where no hover opens over the side bar. */
async function movePointerOffTheSideBar(page: Page): Promise<void> {
  const box = await page.locator('.part.editor').first().boundingBox();
  if (box) await page.mouse.move(box.x + box.width - 40, box.y + box.height - 40);
}

/**
 * Opens a tree row, as a person clicks it, and waits until its children are drawn. The row is clicked only while it
 * shows closed — first, and again if it was drawn anew closed (a click that landed as the row was replaced); an open
 * row is left to fill in. One that stayed open and empty would be Greenloop's bug (its Loop history redraws such a
 * row by itself), so the wait says so rather than closing and opening it until it works.
 */
export async function expandTreeRow(page: Page, viewName: string, label: string, quietMs = 30_000): Promise<TreeRow[]> {
  const limit = ceiling(quietMs);
  const end = Date.now() + limit;
  let rows: TreeRow[] = [];
  while (Date.now() < end) {
    rows = await treeRows(page, viewName);
    const i = rows.findIndex((r) => r.label === label);
    if (i >= 0) {
      const hasChildren = i + 1 < rows.length && rows[i + 1].level > rows[i].level;
      if (rows[i].expanded && hasChildren) return rows;
      if (rows[i].expanded === false) await clickTreeRow(page, viewName, label);
    }
    // The next look at the tree: polling, not waiting for anything in particular.
    await page.waitForTimeout(250);
  }
  throw new Error(`Timed out after ${seconds(limit)} waiting for "${label}" to open and show its children; last seen: ${JSON.stringify(rows)}.`);
}

/** Drags the side bar's edge `px` to the right, as a person widens it to read long tree rows. */
export async function widenSideBar(page: Page, px: number): Promise<void> {
  const box = await page.locator('#workbench\\.parts\\.sidebar').boundingBox();
  if (!box) throw new Error('The side bar is not visible, so it cannot be widened; open a view container first.');
  const x = box.x + box.width + 1;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + px, y, { steps: 8 });
  await page.mouse.up();
  // Off the sash, so its highlight and the terminal's size hint are gone from the next screenshot.
  await page.mouse.move(x + px + 300, box.y + 20);
  await page.locator('.monaco-sash.hover, .monaco-sash.active').first().waitFor({ state: 'detached', timeout: ceiling(10_000) }).catch(() => undefined);
}

/** Hides the bottom panel (terminal, output) so the editor area shows more, as Ctrl+J does. */
export async function hidePanel(page: Page): Promise<void> {
  if (await page.locator('#workbench\\.parts\\.panel').isVisible()) await runCommand(page, 'View: Hide Panel');
}
