import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ERROR_REPORT_TUNNEL_PATH } from '@whistle/contracts';
import { startSentryServer, type SentryServer } from '@whistle/test-support/sentry-server';
import { openWatchedPage } from '../../src/browser';
import { STAFF_PASSWORD, browserToken, onboardCompany, submitLogin, type OnboardedCompany } from '../../src/staff';
import type { StandalonePlatform } from '../../src/standalone';
import { startPlatformAndBrowser } from '../../src/set-up';

/**
 * Error reporting in Chromium against a loopback Sentry ingest endpoint that parses the envelopes the
 * platform forwards (spec §8, issue 14): an error on every page reaches it through the same-origin tunnel,
 * with none of a canary typed into the page's forms, put in its query strings, cookies and local storage;
 * no company identifier, secret path, query string, client address, cookie or header; and the API errors
 * the spec says to ignore (status 0, 401, 403, 413, 5xx) produce no event, while a render crash and a 404 do.
 */
let platform: StandalonePlatform;
let browser: Browser;
let sentry: SentryServer;
let company: OnboardedCompany;
const CANARY = `cnry${randomBytes(6).toString('hex')}`;
/** The browser's project (SENTRY_BROWSER_DSN); the services report to project 1. */
const BROWSER_PROJECT = 2;

beforeAll(async () => {
  sentry = await startSentryServer();
  [platform, browser] = await startPlatformAndBrowser({
    env: {
      SENTRY_DSN: sentry.dsn(1),
      SENTRY_BROWSER_DSN: sentry.dsn(BROWSER_PROJECT),
      SENTRY_ENVIRONMENT: 'e2e',
    },
  });
  company = await onboardCompany(platform);
});
afterAll(async () => {
  await browser?.close();
  await platform?.dispose();
  await sentry?.close();
});

type SentryEvent = {
  exception?: { values?: { type?: string; value?: string }[] };
  request?: { url?: string };
  tags?: Record<string, string>;
};

const browserEvents = () =>
  sentry.envelopes
    .filter((envelope) => envelope.projectId === String(BROWSER_PROJECT))
    .flatMap((envelope) => envelope.items)
    .filter((item) => item.header.type === 'event')
    .map((item) => item.payload as SentryEvent);

const exceptionValues = (event: SentryEvent) => (event.exception?.values ?? []).map((value) => value.value ?? '');

/**
 * Throws an uncaught error in the page until its event arrives: the SDK is loaded after the run-time
 * manifest, so the first throws of a fresh page may come before it listens.
 */
async function uncaughtErrorReported(page: Page, marker: string): Promise<SentryEvent> {
  for (let attempt = 0; attempt < 40; attempt++) {
    await page.evaluate((message) => {
      setTimeout(() => {
        throw new Error(message);
      });
    }, marker);
    const deadline = Date.now() + 1500;
    while (Date.now() < deadline) {
      const event = browserEvents().find((each) => exceptionValues(each).includes(marker));
      if (event) return event;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`No event for ${marker} (${sentry.envelopes.length} envelopes)`);
}

async function waitForEvent(predicate: (event: SentryEvent) => boolean, what: string): Promise<SentryEvent> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const event = browserEvents().find(predicate);
    if (event) return event;
    if (Date.now() > deadline)
      throw new Error(`No event for ${what}: ${JSON.stringify(browserEvents().map(exceptionValues))}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A context whose cookies and local storage hold the canary: neither may reach a report. */
async function canaryContext(): Promise<BrowserContext> {
  const context = await browser.newContext();
  await context.addCookies([{ name: 'canary', value: CANARY, url: platform.baseUrl }]);
  await context.addInitScript((canary) => localStorage.setItem('canary', canary), CANARY);
  return context;
}

/** What no envelope the browser sent may hold. */
function expectNothingSecretInBrowserEnvelopes(secrets: string[]) {
  const envelopes = sentry.envelopes.filter((envelope) => envelope.projectId === String(BROWSER_PROJECT));
  expect(envelopes.length).toBeGreaterThan(0);
  for (const envelope of envelopes) {
    for (const secret of [CANARY, company.urlIdentifier, ...secrets]) expect(envelope.raw).not.toContain(secret);
    // No query string of a page or an API call (tokens, SSO codes, retrieval ids), no secret path.
    expect(envelope.raw).not.toMatch(/[?&](token|code|retrieval_id|url_identifier|next)=/);
    expect(envelope.raw).not.toMatch(/\/disclose\/(?!:urlIdentifier)[\w-]+/);
    // No client address, cookie or header; the SDK asked the server not to infer the address either.
    expect(envelope.raw).not.toMatch(/"(ip_address|cookies|headers|query_string)":/);
    expect(envelope.raw).not.toContain('{{auto}}');
    // The tunnel forwards the envelope, not the client.
    expect(envelope.headers['x-forwarded-for']).toBeUndefined();
    expect(envelope.headers['x-sentry-forwarded-for']).toBeUndefined();
    expect(envelope.headers.cookie).toBeUndefined();
  }
}

test('when an error happens on every page with a canary typed in, then each is reported through the tunnel without the canary, a secret path, a query string, an address or a cookie', async () => {
  const context = await canaryContext();
  const { page, foreignRequests } = await openWatchedPage(context, platform.baseUrl);
  const tunnelPosts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes(ERROR_REPORT_TUNNEL_PATH))
      tunnelPosts.push(request.url());
  });

  // Discloser landing page, the status form holding a secret code.
  await page.goto(`${platform.baseUrl}/disclose/${company.urlIdentifier}?ref=${CANARY}#code=${CANARY}`);
  await page.getByRole('button', { name: 'Check incident status' }).click();
  await page.locator('input[name="uniquePassword"]').fill(`${CANARY}:aaaa-bbbb`);
  const landing = await uncaughtErrorReported(page, 'e2e fault on the landing page');
  expect(landing.request?.url).toBe(`${platform.baseUrl}/disclose/:urlIdentifier`);

  // Create page, every text input holding the canary.
  await page.goto(`${platform.baseUrl}/disclose/${company.urlIdentifier}/create`);
  await page.locator('form button[type="submit"]:enabled').waitFor();
  await page.locator('input[name="report_anonymously"][value="false"]').check();
  await page.locator('input[name="full_name"]').fill(`Ada ${CANARY}`);
  await page.locator('input[name="email"]').fill(`${CANARY}@example.com`);
  await page.locator('textarea[name="description"]').fill(`Description ${CANARY}`);
  await page.locator('input[name="category_uuids"]').first().check();
  await page.locator('select[name="location_uuid"]').selectOption({ index: 1 });
  await uncaughtErrorReported(page, 'e2e fault on the create page');

  // A real report, then the review page opened with its secret code, a reply holding the canary.
  await page.locator('form button[type="submit"]').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Submit incident' }).click();
  await page.waitForURL(/\/success$/, { timeout: 30_000 });
  const secretCode = (await page.locator('.disclose-code__value').textContent())!;
  await page.goto(`${platform.baseUrl}/disclose/${company.urlIdentifier}`);
  await page.getByRole('button', { name: 'Check incident status' }).click();
  await page.locator('input[name="uniquePassword"]').fill(secretCode);
  await page.locator('form.disclose-status button[type="submit"]').click();
  await page.getByRole('heading', { name: /^Report \d+$/ }).waitFor({ timeout: 30_000 });
  await page.locator('textarea').first().fill(`Reply ${CANARY}`);
  const review = await uncaughtErrorReported(page, 'e2e fault on the review page');
  expect(review.request?.url).toBe(`${platform.baseUrl}/disclose/:urlIdentifier/review`);

  // Staff login: a wrong password holding the canary (401: not reported), then the fault.
  await page.goto(`${platform.baseUrl}/company/login?next=${CANARY}`);
  await submitLogin(page, company.adminEmail, CANARY);
  await page.getByText('Invalid email or password').waitFor();
  await uncaughtErrorReported(page, 'e2e fault on the login page');

  // Password change with its token in the query string, SSO return with its code.
  await page.goto(`${platform.baseUrl}/company/password/change?token=${CANARY}`);
  await uncaughtErrorReported(page, 'e2e fault on the password change page');
  await page.goto(`${platform.baseUrl}/company/login/sso?code=${CANARY}`);
  await uncaughtErrorReported(page, 'e2e fault on the SSO page');

  // Signed in: incidents (the case list) and settings (the account form holding the canary).
  await page.goto(`${platform.baseUrl}/company/login`);
  await submitLogin(page, company.adminEmail, STAFF_PASSWORD);
  await page.getByRole('heading', { name: 'Incidents', level: 1 }).waitFor({ timeout: 30_000 });
  await uncaughtErrorReported(page, 'e2e fault on the incidents page');
  const staffToken = await browserToken(page);
  await page.goto(`${platform.baseUrl}/company/settings/account`);
  await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
  await page.getByLabel('Full name').fill(`Ada ${CANARY}`);
  await uncaughtErrorReported(page, 'e2e fault on the settings page');

  expect(tunnelPosts.length).toBeGreaterThan(0);
  expect(foreignRequests).toEqual([]);
  expectNothingSecretInBrowserEnvelopes([secretCode, secretCode.split(':')[1]!, staffToken!]);
  await context.close();
});

test('when the API answers 0, 401, 403, 413 or 5xx the page ignores them (spec §8), while a 404 and a render crash are reported', async () => {
  const context = await canaryContext();
  const page = await context.newPage();
  const companyView = `**/api/account/company/${company.urlIdentifier}`;

  // The company's pages are drawn by the server with the company view embedded, which the remote then does not ask
  // the API for: here they are served as a server that could not read the view serves them, without that block, so
  // the page asks the API, whose answers this test replaces.
  await page.route(`${platform.baseUrl}/disclose/${company.urlIdentifier}**`, async (route) => {
    if (route.request().resourceType() !== 'document') return route.fallback();
    const served = await route.fetch();
    const body = (await served.text()).replace(
      /<script type="application\/json" id="whistle-company-view">.*?<\/script>/s,
      '',
    );
    await route.fulfill({ response: served, body });
  });
  const landing = `${platform.baseUrl}/disclose/${company.urlIdentifier}`;

  // The company view of the landing page answered with each ignored status in turn (or no answer at all): the
  // page shows its error, and nothing is reported.
  for (const status of [0, 401, 403, 413, 500, 502, 503]) {
    await page.route(companyView, (route) =>
      status === 0 ? route.abort('connectionfailed') : route.fulfill({ status, json: { message: 'refused' } }),
    );
    await page.goto(landing);
    await page.getByRole('alert').waitFor();
    // The SDK of this page is up and sending: had the error been reported, it would be on its way first.
    await uncaughtErrorReported(page, `e2e marker after status ${status}`);
    await page.unroute(companyView);
  }

  // A 404 of the API (a company that does not exist) is reported.
  await page.goto(`${platform.baseUrl}/disclose/no-such-company-${randomBytes(3).toString('hex')}`);
  await waitForEvent((event) => exceptionValues(event).includes('API answered 404'), 'the API 404');
  // A render crash: the company view answered with nothing the create page can show.
  await page.route(companyView, (route) => route.fulfill({ status: 200, json: null }));
  await page.goto(`${platform.baseUrl}/disclose/${company.urlIdentifier}/create`);
  await page.getByRole('alert').waitFor();
  await waitForEvent(
    (event) => exceptionValues(event).some((value) => /^Cannot read properties of (null|undefined)/.test(value)),
    'the render crash',
  );

  const apiStatuses = browserEvents().flatMap((event) =>
    exceptionValues(event).flatMap((value) => /^API answered (\d+)$/.exec(value)?.[1] ?? []),
  );
  expect(apiStatuses.filter((status) => status !== '404')).toEqual([]);
  expect(
    browserEvents().filter((event) =>
      exceptionValues(event).some((value) => /Failed to fetch|Network error|Request aborted/.test(value)),
    ),
  ).toEqual([]);
  expectNothingSecretInBrowserEnvelopes([]);
  await context.close();
});
