import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ceiling } from './patience';
import { assertSetupDone, chromiumPath, resultsDir } from './paths';
import { removeOnExit } from './processGroup';

/**
 * Flags that let Debian's Chromium run headless as root on a machine with a closed network: without the
 * background-networking ones it keeps dialling Google's hosts and logs refusals at every start.
 */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-breakpad',
];

export interface E2eBrowser {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export async function launchBrowser(opts: { width?: number; height?: number } = {}): Promise<E2eBrowser> {
  assertSetupDone();
  // Chromium writes crash-report settings under $XDG_CONFIG_HOME; keep them out of the real home.
  const home = mkdtempSync(join(tmpdir(), 'greenloop-chromium-'));
  const forgetHome = removeOnExit(home);
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: chromiumArgs,
      env: { ...process.env, XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache') },
      timeout: ceiling(60_000),
    });
    const context = await browser.newContext({ viewport: { width: opts.width ?? 1400, height: opts.height ?? 860 } });
    const page = await context.newPage();
    const started = browser;
    return {
      browser: started,
      context,
      page,
      async close() {
        await started.close().catch(() => undefined);
        rmSync(home, { recursive: true, force: true });
        forgetHome();
      },
    };
  } catch (err) {
    await browser?.close().catch(() => undefined);
    rmSync(home, { recursive: true, force: true });
    forgetHome();
    throw err;
  }
}

/** Saves the page as test-results/e2e/<name>.png and returns the path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(resultsDir, { recursive: true });
  const path = join(resultsDir, `${name.replace(/[^\w.-]+/g, '-')}.png`);
  // Toasts and quick input fade in: Playwright ends every animation first, so the picture shows what a person sees.
  await page.screenshot({ path, animations: 'disabled' });
  return path;
}
