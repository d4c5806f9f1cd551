import type { Browser, Page } from 'playwright-core';
import { openWatchedPage, seriousAccessibilityViolations } from '../../src/browser';
import { submitReport } from '../../src/reports';
import { STAFF_PASSWORD, apiToken, invite, onboardCompany, submitLogin, type OnboardedCompany } from '../../src/staff';
import type { StandalonePlatform } from '../../src/standalone';
import { startPlatformAndBrowser } from '../../src/set-up';

/**
 * The staff pages' layout in Chromium, on the standalone platform (issue 23 item 7): at 768 px no page is wider than
 * the window (wide tables scroll inside their frame, which the keyboard reaches and scrolls); the audit log takes
 * the window's width and names its case by number; a team row's actions are a menu the keyboard opens and Escape
 * closes, focus back on its button; the changed pages pass axe-core.
 */
let platform: StandalonePlatform;
let browser: Browser;
let company: OnboardedCompany;
let incidentUuid: string;

beforeAll(async () => {
  [platform, browser] = await startPlatformAndBrowser();
  company = await onboardCompany(platform);
  await invite(platform.baseUrl, await apiToken(platform.baseUrl, company.adminEmail), {
    email: `grace@${company.domain}`,
    full_name: 'Grace Hopper',
    roles: ['HANDLER'],
  });
  incidentUuid = await submitReport(platform.baseUrl, company.urlIdentifier);
});
afterAll(async () => {
  await browser?.close();
  await platform?.dispose();
});

/** Signed in as the admin in a fresh context of `width` (CSP bypassed for axe-core). */
async function signedIn(width: number, height = 1024) {
  const context = await browser.newContext({ bypassCSP: true, viewport: { width, height } });
  const watched = await openWatchedPage(context, platform.baseUrl);
  await watched.page.goto(`${platform.baseUrl}/company/login`);
  await submitLogin(watched.page, company.adminEmail, STAFF_PASSWORD);
  await watched.page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor();
  return { context, ...watched };
}

/** Opens `path` and waits for its level-1 heading, then for what it loads. */
async function open(page: Page, path: string) {
  await page.goto(`${platform.baseUrl}${path}`);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.waitForLoadState('networkidle');
}

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

/**
 * The outermost elements reaching past the window's right edge, outside scrolling frames (what a failure names).
 * Absolutely positioned text inside a frame (visually hidden labels) counts on the page unless the frame is their
 * containing block: the page's width is asserted too.
 */
const pastTheWindow = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.body.querySelectorAll<HTMLElement>('*'))
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
      .filter((element) => !element.parentElement?.closest('.wh-table-scroll'))
      .filter((element) => element.parentElement!.getBoundingClientRect().right <= window.innerWidth + 1)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`),
  );

const STAFF_PAGES = [
  '/company/incidents',
  '/company/team',
  '/company/reporting',
  ...['account', 'categories', 'locations', 'company', 'deadline', 'notifications', 'reply-templates'].map(
    (page) => `/company/settings/${page}`,
  ),
  ...['retention', 'audit-log', 'sso', 'security'].map((page) => `/company/settings/${page}`),
];
/** The pages whose layout changed: axe-core on each. */
const CHANGED = new Set([
  '/company/team',
  '/company/reporting',
  '/company/settings/account',
  '/company/settings/categories',
  '/company/settings/locations',
  '/company/settings/reply-templates',
  '/company/settings/audit-log',
  '/company/settings/security',
]);

test('when a staff member works at 768 px, then no page is wider than the window and the changed pages pass axe', async () => {
  const { context, page, pageErrors } = await signedIn(768);
  const problems: string[] = [];
  for (const path of [...STAFF_PAGES, `/company/incidents/${incidentUuid}`]) {
    await open(page, path);
    const width = await pageWidth(page);
    if (width > 768) problems.push(`${path} is ${width} px wide: ${(await pastTheWindow(page)).join(' ')}`);
    if (CHANGED.has(path)) {
      const violations = await seriousAccessibilityViolations(page);
      if (violations.length) problems.push(`${path}: ${violations.join(', ')}`);
    }
  }
  expect(problems).toEqual([]);
  expect(pageErrors).toEqual([]);
  await context.close();
});

test('when the window is narrower than the audit log, then its table scrolls in a labelled region the keyboard scrolls', async () => {
  const { context, page } = await signedIn(480);
  await open(page, '/company/settings/audit-log');
  const region = page.getByRole('region', { name: 'Audit log entries, newest first' });
  await region.getByRole('table').waitFor();
  expect(await pastTheWindow(page)).toEqual([]);
  expect(await pageWidth(page)).toBeLessThanOrEqual(480);
  expect(await region.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
  // Reached with Tab (it is in the tab order), scrolled with the arrow keys.
  await region.focus();
  expect(await region.evaluate((element) => element === document.activeElement)).toBe(true);
  for (let i = 0; i < 5; i += 1) await page.keyboard.press('ArrowRight');
  await page.waitForFunction(
    () => (document.querySelector('[role="region"].wh-table-scroll') as HTMLElement).scrollLeft > 0,
  );
  await context.close();
});

test('when an admin opens the audit log at 1366 px, then it takes the window’s width and names the case by number', async () => {
  const { context, page } = await signedIn(1366, 768);
  await open(page, '/company/settings/audit-log');
  const region = page.getByRole('region', { name: 'Audit log entries, newest first' });
  const link = region.getByRole('link', { name: 'Open the case #1' }).first();
  await link.waitFor();
  expect(await link.getAttribute('href')).toBe(`/company/incidents/${incidentUuid}`);
  // Wider than the old settings column (about 700 px), and no row wraps: each as tall as one line of text.
  expect((await region.boundingBox())!.width).toBeGreaterThan(1000);
  const heights = await region
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((row) => row.getBoundingClientRect().height));
  expect(Math.max(...heights)).toBeLessThan(40);
  await context.close();
});

test('when a team row’s actions are opened from the keyboard, then the menu takes focus, Escape closes it and focus returns', async () => {
  const { context, page, pageErrors } = await signedIn(1366, 768);
  await open(page, '/company/team');
  const button = page.getByRole('button', { name: 'Actions for Grace Hopper' });
  await button.focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu', { name: 'Actions for Grace Hopper' });
  await menu.waitFor();
  expect(await button.getAttribute('aria-expanded')).toBe('true');
  expect(await menu.getByRole('menuitem').allInnerTexts()).toEqual(['Change roles', 'Send invitation again', 'Remove']);
  const focused = () => page.evaluate(() => document.activeElement?.textContent);
  expect(await focused()).toBe('Change roles');
  await page.keyboard.press('ArrowUp');
  expect(await focused()).toBe('Remove');
  // Removal reads as a danger: the error colour, not the others' text colour.
  const colours = await menu
    .getByRole('menuitem')
    .evaluateAll((items) => items.map((item) => getComputedStyle(item).color));
  expect(colours[2]).not.toBe(colours[0]);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'detached' });
  expect(await button.evaluate((element) => element === document.activeElement)).toBe(true);
  expect(await button.getAttribute('aria-expanded')).toBe('false');
  // Your own row has one action: a plain button, no menu.
  await page.getByRole('button', { name: 'Change roles of Ada Lovelace' }).waitFor();
  expect(pageErrors).toEqual([]);
  await context.close();
});

test('when the incident list loads, then what its answers bring later moves nothing on it', async () => {
  const { context, page, pageErrors } = await signedIn(1350, 940);
  await page.addInitScript(() => {
    const shifts: number[] = [];
    (window as { __shifts?: number[] }).__shifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) shifts.push((entry as unknown as { value: number }).value);
    }).observe({ type: 'layout-shift', buffered: true });
  });
  // The company (categories, locations, people) and the saved views held until the page is drawn without them, as
  // a slow answer would come: the filters' selects and the views' list then fill in where the page left room.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/(account\/company\/|incident\/saved-view\/)(\?.*)?$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${platform.baseUrl}/company/incidents`);
  await page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor();
  await page.getByRole('button', { name: 'Search in reports' }).waitFor();
  release();
  await page.getByRole('link', { name: 'Record a report' }).waitFor();
  await page.getByText('No saved view yet').waitFor();
  await page.locator(`a[href$="/company/incidents/${incidentUuid}"]`).first().waitFor();
  await page.waitForLoadState('networkidle');
  const shifts = await page.evaluate(() => (window as { __shifts?: number[] }).__shifts!);
  // Lighthouse's "good" is 0.1; a page of work staff return to all day should not move at all.
  expect(shifts.reduce((total, shift) => total + shift, 0)).toBeLessThan(0.01);
  expect(pageErrors).toEqual([]);
  await context.close();
});
