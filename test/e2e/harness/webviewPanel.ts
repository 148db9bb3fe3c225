import type { FrameLocator, Page } from 'playwright-core';
import { ceiling } from './patience';

/**
 * The document of the visible webview editor (the escalation panel), as a person sees it. VS Code draws each
 * webview as an outer iframe (`iframe.webview`, its host shim) that holds the extension's page in an inner
 * `#active-frame`; hidden webviews keep their iframes, so we take the visible one.
 */
export function webviewDocument(page: Page): FrameLocator {
  return page.locator('iframe.webview.ready').filter({ visible: true }).last().contentFrame().locator('iframe#active-frame').contentFrame();
}

/** Waits until an editor tab with `title` is the active one (e.g. the escalation panel "Greenloop: calc"). */
export async function waitForActiveTab(page: Page, title: string | RegExp, quietMs = 60_000): Promise<void> {
  await page.locator('.tabs-container .tab.active', { hasText: title }).first().waitFor({ state: 'visible', timeout: ceiling(quietMs) });
}
