import type { Browser, Page } from 'playwright-core';
import { openWatchedPage } from '../../src/browser';
import { apiToken, onboardCompany, type OnboardedCompany } from '../../src/staff';
import type { StandalonePlatform } from '../../src/standalone';
import { startPlatformAndBrowser } from '../../src/set-up';

/**
 * The landing page's first view is in the HTML the standalone server sends (drawn from the public company view),
 * escaped, and the remote then takes it over: the same page, which answers the discloser. Likewise the create page,
 * the success and review pages opened by their address (the landing page), and the staff login page.
 */
let platform: StandalonePlatform;
let browser: Browser;
let company: OnboardedCompany;
// Markup in a title is text: escaped in the HTML, shown as typed, never run.
const TITLE = 'Speak <script>window.__pwned = 1</script> up & "safely"';

beforeAll(async () => {
  [platform, browser] = await startPlatformAndBrowser();
  company = await onboardCompany(platform);
  const token = await apiToken(platform.baseUrl, company.adminEmail);
  const saved = await fetch(`${platform.baseUrl}/api/account/company/customization`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ title: TITLE, description: null }),
  });
  expect(saved.status).toBe(200);
});
afterAll(async () => {
  await browser?.close();
  await platform?.dispose();
});

// The drawn page is measured once its stylesheets apply: the shell's deferred script, and so DOMContentLoaded, waits
// for them (a box read before would be the unstyled page's).

/** Holds back the requests for `file` until the returned function is called: the drawn view stays until then. */
async function holdBack(page: Page, file: RegExp): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(file, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** Records the page's layout shifts from its start; the returned function reads their values. */
async function watchLayoutShifts(page: Page): Promise<() => Promise<number[]>> {
  await page.addInitScript(() => {
    const shifts: number[] = [];
    (window as { __shifts?: number[] }).__shifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) shifts.push((entry as unknown as { value: number }).value);
    }).observe({ type: 'layout-shift', buffered: true });
  });
  return () => page.evaluate(() => (window as { __shifts?: number[] }).__shifts!);
}

test('when the landing page is asked for, then its HTML holds the company title escaped and the report link', async () => {
  const response = await fetch(`${platform.baseUrl}/disclose/${company.urlIdentifier}`, {
    headers: { accept: 'text/html' },
  });
  expect(response.status).toBe(200);
  const html = await response.text();
  expect(html).toContain('<h1>Speak &lt;script&gt;window.__pwned = 1&lt;/script&gt; up &amp; &quot;safely&quot;</h1>');
  expect(html).toContain(`href="/disclose/${company.urlIdentifier}/create"`);
  // The only script elements: the shell's entry and the company view as a data block, `<` escaped in it.
  expect(html.match(/<script[^>]*>/g)).toEqual([
    '<script defer src=/main.js>',
    '<script type="application/json" id="whistle-company-view">',
  ]);
  expect(html).toContain('Speak \\u003cscript>window.__pwned = 1\\u003c/script> up');
  // What anyone may see of the company, nothing more.
  const block = /<script type="application\/json" id="whistle-company-view">(.*?)<\/script>/.exec(html)![1];
  const publicView = await (await fetch(`${platform.baseUrl}/api/account/company/${company.urlIdentifier}`)).json();
  expect(JSON.parse(block)).toEqual(publicView);
});

test('when a discloser opens the landing page, then the drawn page is taken over by the remote and answers', async () => {
  const context = await browser.newContext();
  const { page, foreignRequests, pageErrors } = await openWatchedPage(context, platform.baseUrl);
  // The remote's code held back until the drawn page has been measured.
  const release = await holdBack(page, /\/__federation_expose_lifecycles\.[0-9a-f]{8}\.js$/);
  await page.goto(`${platform.baseUrl}/disclose/${company.urlIdentifier}`, { waitUntil: 'domcontentloaded' });
  await expect(page.locator('h1').textContent()).resolves.toBe(TITLE);
  await page.locator('h1').waitFor({ state: 'visible' });
  const drawnAt = await page.locator('h1').boundingBox();
  release();
  // The remote read the view the page came with (and removed it) on its first render: it has the page now.
  await page.locator('#whistle-company-view').waitFor({ state: 'detached' });
  await expect(page.locator('h1').textContent()).resolves.toBe(TITLE);
  // In the same place: the drawn header holds the language chooser too, so it does not grow.
  expect(await page.locator('h1').boundingBox()).toEqual(drawnAt);
  // The status button opens its form: React's, not the drawn one.
  await page.getByRole('button', { name: 'Check incident status' }).click();
  await page.locator('input[name="uniquePassword"]').waitFor();
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await page.title()).toBe(TITLE);
  await page.locator('a[href$="/create"]').click();
  await page.locator('textarea[name="description"]').waitFor();
  expect({ foreignRequests, pageErrors }).toEqual({ foreignRequests: [], pageErrors: [] });
  await context.close();
});

test.each(['/success', '/review'])(
  'when a discloser opens "%s" by its address, then the drawn landing page is taken over in place, without the router',
  async (subpage) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const shifts = await watchLayoutShifts(page);
    const scripts: string[] = [];
    page.on('request', (request) => scripts.push(new URL(request.url()).pathname));
    const release = await holdBack(page, /\/__federation_expose_lifecycles\.[0-9a-f]{8}\.js$/);
    // Nothing sent or opened in this page: there is no code or report to show, the landing page is what there is.
    await page.goto(`${platform.baseUrl}/disclose/${company.urlIdentifier}${subpage}`, {
      waitUntil: 'domcontentloaded',
    });
    await page.locator('h1').waitFor({ state: 'visible' });
    await expect(page.locator('h1').textContent()).resolves.toBe(TITLE);
    const drawnAt = await page.locator('h1').boundingBox();
    release();
    await page.locator('#whistle-company-view').waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe(`/disclose/${company.urlIdentifier}`);
    expect(await page.locator('h1').boundingBox()).toEqual(drawnAt);
    // Within the budget (CLS ≤ 0.02). Not none: now and then the key fingerprint's line, which only React draws,
    // moves up by a row of buttons as the landing page settles (the same on the landing page itself).
    expect((await shifts()).reduce((sum, value) => sum + value, 0)).toBeLessThanOrEqual(0.02);
    // Until the discloser heads elsewhere (the status form below loads it on intent).
    await page.waitForLoadState('networkidle');
    expect(scripts.filter((file) => /routed-app|success-page|review-page/.test(file))).toEqual([]);
    await page.getByRole('button', { name: 'Check incident status' }).click();
    await page.locator('input[name="uniquePassword"]').waitFor();
    await context.close();
  },
);

/** The paths of the scripts and stylesheets an HTML page hints with `<link rel="preload">` or links. */
const hintedFiles = (html: string) =>
  new Set([...html.matchAll(/<link rel="(?:preload|stylesheet)" href="([^"]+\.(?:js|css))"/g)].map(([, href]) => href));
/** The stylesheets an HTML page holds inline (by the address of their file). */
const inlinedFiles = (html: string) => [...html.matchAll(/<style data-href="([^"]+)">/g)].map(([, href]) => href);

test.each(['', '/create', '/success', '/review'])(
  'when a discloser opens the company page "%s", then every script and stylesheet it loads was hinted in its HTML, and the inlined ones are not loaded again',
  async (subpage) => {
    const url = `${platform.baseUrl}/disclose/${company.urlIdentifier}${subpage}`;
    const html = await (await fetch(url, { headers: { accept: 'text/html' } })).text();
    const hinted = hintedFiles(html);
    const inlined = inlinedFiles(html);
    expect(inlined.length).toBeGreaterThan(0);
    const context = await browser.newContext();
    const page = await context.newPage();
    // The inlined styles are allowed by their hashes in the page's CSP: a refused one would show unstyled.
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/.test(message.text())) refused.push(message.text());
    });
    // Found only once the code before them has run, a file costs a round trip more on a slow network.
    const loaded: string[] = [];
    page.on('request', (request) => {
      const { origin, pathname } = new URL(request.url());
      if (origin === platform.baseUrl && /\.(?:js|css)$/.test(pathname) && pathname !== '/main.js')
        loaded.push(pathname);
    });
    await page.goto(url);
    const ready = { '': 'a[href$="/create"]', '/create': 'textarea[name="description"]' }[subpage];
    // Success and review without a report: the page itself is there once its heading or form shows.
    await page
      .locator(ready ?? 'main h1, main form')
      .first()
      .waitFor();
    await page.waitForLoadState('networkidle');
    expect(loaded.length).toBeGreaterThan(0);
    expect(loaded.filter((file) => !hinted.has(file))).toEqual([]);
    expect(loaded.filter((file) => inlined.includes(file))).toEqual([]);
    expect(refused).toEqual([]);
    // Styled by them: the drawn frame's header is laid out as a flex row, not as unstyled blocks.
    await expect(page.locator('header.wh-header').evaluate((header) => getComputedStyle(header).display)).resolves.toBe(
      'flex',
    );
    await context.close();
  },
);

test('when a discloser opens the create page, then its drawn first view is taken over in place and works', async () => {
  const url = `${platform.baseUrl}/disclose/${company.urlIdentifier}/create`;
  const html = await (await fetch(url, { headers: { accept: 'text/html' } })).text();
  expect(html).toContain('<h1>Report an incident</h1>');
  expect(html).toContain('name="report_anonymously" value="false" disabled>');
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const shifts = await watchLayoutShifts(page);
  // The create page's chunk held back: what shows until it comes is the drawn view.
  const release = await holdBack(page, /\/create-page\.[0-9a-f]{8}\.js$/);
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  const named = page.getByRole('radio', { name: 'Give my name' });
  await expect(named.isDisabled()).resolves.toBe(true);
  const box = await page.locator('h1').boundingBox();
  release();
  await page.locator('textarea[name="description"]').waitFor();
  await expect(named.isEnabled()).resolves.toBe(true);
  expect(await page.locator('h1').boundingBox()).toEqual(box);
  expect(await shifts()).toEqual([]);
  // React's form, not the drawn one: the choice shows the name field.
  await named.check();
  await page.locator('input[name="full_name"]').waitFor();
  await context.close();
});

test('when a member of staff opens the login page, then its drawn form is taken over in place and signs in', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'de-DE' });
  const page = await context.newPage();
  const shifts = await watchLayoutShifts(page);
  // The shell's public pages held back: what shows until they come is the drawn page, in German.
  const release = await holdBack(page, /\/public-pages\.[0-9a-f]{8}\.js$/);
  await page.goto(`${platform.baseUrl}/company/login`, { waitUntil: 'domcontentloaded' });
  const email = page.getByLabel('E-Mail-Adresse');
  await expect(email.isDisabled()).resolves.toBe(true);
  const box = await page.locator('h1').boundingBox();
  const formBox = await page.locator('form').boundingBox();
  release();
  await page.locator('input[name="email"]:enabled').waitFor({ timeout: 30_000 });
  await expect(page.locator('h1').textContent()).resolves.toBe('Anmelden');
  expect(await page.locator('h1').boundingBox()).toEqual(box);
  expect(await page.locator('form').boundingBox()).toEqual(formBox);
  expect(await shifts()).toEqual([]);
  // React's form, not the drawn one: a wrong password is answered in the page.
  await email.fill(company.adminEmail);
  await page.getByLabel('Passwort', { exact: true }).fill('not the password');
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await page.getByRole('alert').waitFor({ timeout: 30_000 });
  expect(new URL(page.url()).pathname).toBe('/company/login');
  await context.close();
});

test('when a company does not exist, then the landing page is not drawn and the not-found page shows', async () => {
  const html = await (
    await fetch(`${platform.baseUrl}/disclose/no-such-company`, { headers: { accept: 'text/html' } })
  ).text();
  expect(html).not.toContain('whistle-company-view');
  expect(html).not.toContain('class="wh-card disclose-landing"');
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${platform.baseUrl}/disclose/no-such-company`);
  await page.getByRole('heading', { name: 'Company not found' }).waitFor();
  await context.close();
});
