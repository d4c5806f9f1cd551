import { readFileSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * Debian's Chromium, headless, with everything that would reach the network at start switched off; `extraArgs`
 * adds a journey's own flags (a fake microphone).
 */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}

export interface WatchedPage {
  page: Page;
  /** Requests that left for another origin than the platform's: a public page must make none. */
  foreignRequests: string[];
  /** Uncaught errors in the page. */
  pageErrors: string[];
}

/** A new page of `context` that records requests to other origins and uncaught page errors. */
export async function openWatchedPage(context: BrowserContext, baseUrl: string): Promise<WatchedPage> {
  const page = await context.newPage();
  const foreignRequests: string[] = [];
  const pageErrors: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(baseUrl) && !url.startsWith('data:') && !url.startsWith('blob:')) foreignRequests.push(url);
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return { page, foreignRequests, pageErrors };
}

/**
 * Ids of the serious and critical axe-core violations on the page as it is now. axe is injected as an
 * inline script, which the pages' CSP rightly refuses: open the page in a context with `bypassCSP`.
 */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8') });
  return page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string }> }> } }
    ).axe;
    const result = await axe.run();
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => violation.id);
  });
}
