import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { fetchCall, signInBody } from '@whistle/test-support';
import { openWatchedPage, seriousAccessibilityViolations } from '../../src/browser';
import { uniqueDomain } from '../../src/company-fixtures';
import { CONFIRMATION_SUBJECT, confirmationLinkIn } from '../../src/mailbox';
import { translationOf } from '../../src/locales';
import type { StandalonePlatform } from '../../src/standalone';
import { startPlatformAndBrowser } from '../../src/set-up';

/**
 * The first journey in Chromium through the real microfrontends, services and database:
 * company onboarding → success page (waiting for confirmation) → the link mailed to the admin → success page
 * (active) → the employees' disclosure page.
 */
let platform: StandalonePlatform;
let browser: Browser;

beforeAll(async () => {
  [platform, browser] = await startPlatformAndBrowser();
});
afterAll(async () => {
  await browser?.close();
  await platform?.dispose();
});

/** Fills the open onboarding form for Ada of Acme Corporation at `domain` and sends it. */
async function sendOnboardingForm(page: Page, domain: string): Promise<void> {
  await page.locator('input[name="email"]').fill(`  ada@${domain}  `);
  await page.locator('input[name="full_name"]').fill('Ada Lovelace');
  await page.locator('input[name="company_name"]').fill('Acme Corporation');
  await page.locator('input[name="password"]').fill('correct horse battery staple');
  await page.locator('input[name="repeat_password"]').fill('correct horse battery staple');
  await page.locator('select[name="country"]').selectOption('FR');
  await page.locator('button[type="submit"]').click();
}

/** Fills and sends the onboarding form; the success page then waits for the admin's confirmation. */
async function register(page: Page, domain: string): Promise<string> {
  await page.goto(`${platform.baseUrl}/company/onboarding`);
  await sendOnboardingForm(page, domain);
  // The recovery kit, shown once: Continue only once its keeping is confirmed.
  await page.getByRole('heading', { name: 'Your recovery kit' }).waitFor({ timeout: 60_000 });
  const kit = (await page.locator('.wh-recovery-kit__key').innerText()).trim();
  expect(kit.split(/\s+/)).toHaveLength(11);
  const proceed = page.getByRole('button', { name: 'Continue' });
  expect(await proceed.isDisabled()).toBe(true);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download as a text file' }).click();
  const saved = await (await download).path();
  expect(readFileSync(saved, 'utf8')).toContain(kit.split(/\s+/).join(' '));
  await page.getByLabel('I have stored the recovery kit').check();
  await proceed.click();
  await page.waitForURL(/\/company\/[a-z0-9-]+\/success$/, { timeout: 30_000 });
  await page.getByText(/^Confirm your e-mail address: we sent a link/).waitFor();
  return /\/company\/([a-z0-9-]+)\/success$/.exec(page.url())![1];
}

/** The admin opens the link mailed to them, in this browser: the company becomes active. */
async function confirmFromMailbox(page: Page, domain: string, urlIdentifier: string): Promise<void> {
  const mail = await platform.mailbox(`ada@${domain}`, CONFIRMATION_SUBJECT);
  await page.goto(confirmationLinkIn(mail));
  await page.waitForURL(new RegExp(`/company/${urlIdentifier}/success$`), { timeout: 30_000 });
  await page.getByText('Your e-mail address is confirmed: your company’s account is active.').waitFor();
  // The link's token left the address bar with the fragment.
  expect(page.url()).not.toContain('token');
}

async function onboard(page: Page, domain: string): Promise<string> {
  const urlIdentifier = await register(page, domain);
  await confirmFromMailbox(page, domain, urlIdentifier);
  return urlIdentifier;
}

test('when an admin onboards a company, then the success page gives the disclosure link and QR code, and the disclosure page works', async () => {
  const context = await browser.newContext();
  const { page, foreignRequests, pageErrors } = await openWatchedPage(context, platform.baseUrl);

  // Client-side validation first: nothing is sent while the form is wrong.
  await page.goto(`${platform.baseUrl}/company/onboarding`);
  await page.locator('button[type="submit"]').click();
  await page.getByText('This field is required').first().waitFor();
  await page.locator('input[name="email"]').fill('not-an-email');
  await page.locator('input[name="password"]').fill('one password here');
  await page.locator('input[name="repeat_password"]').fill('another password');
  await page.locator('button[type="submit"]').click();
  await page.getByText('Invalid email address').waitFor();
  await page.getByText('Passwords do not match').waitFor();
  expect(await page.locator('select[name="country"] option').count()).toBeGreaterThanOrEqual(240);

  // A common password is refused in the form, before anything is registered.
  const domain = uniqueDomain();
  await page.goto(`${platform.baseUrl}/company/onboarding`);
  await page.locator('input[name="password"]').fill('Password1234');
  await page.locator('input[name="repeat_password"]').fill('Password1234');
  await page.locator('input[name="email"]').fill(`ada@${domain}`);
  await page.locator('input[name="full_name"]').fill('Ada Lovelace');
  await page.locator('input[name="company_name"]').fill('Acme Corporation');
  await page.locator('select[name="country"]').selectOption('FR');
  await page.locator('button[type="submit"]').click();
  await page.getByText('This password is too common; choose another').waitFor();

  const urlIdentifier = await register(page, domain);
  const disclosureLink = `${platform.baseUrl}/disclose/${urlIdentifier}`;
  // Until the admin confirms, the company does not exist: not for disclosers, not for sign-in.
  expect(await page.locator('input[name="disclosure_link"]').inputValue()).toBe(disclosureLink);
  expect((await page.request.get(`${platform.baseUrl}/api/account/company/${urlIdentifier}`)).status()).toBe(404);
  const signIn = await page.request.post(`${platform.baseUrl}/api/account/token`, {
    data: await signInBody(fetchCall(platform.baseUrl), `ada@${domain}`, 'correct horse battery staple'),
  });
  expect(signIn.status()).toBe(401);
  await confirmFromMailbox(page, domain, urlIdentifier);
  expect(await page.locator('input[name="disclosure_link"]').inputValue()).toBe(disclosureLink);
  const qrSelector = `img[src*="/api/account/company/${urlIdentifier}/qrcode"]`;
  await page.locator(qrSelector).waitFor();
  // A broken image never gets a width: this times out and fails.
  await page.waitForFunction(
    (selector) => {
      const img = document.querySelector<HTMLImageElement>(selector);
      return Boolean(img?.complete && img.naturalWidth > 0);
    },
    qrSelector,
    { timeout: 10_000 },
  );
  await page.locator('a[href="/company/login"]').waitFor();

  const landing = await page.goto(disclosureLink);
  // The discloser's page may post forms to Whistle only, and loads nothing inline or from elsewhere.
  const landingHeaders = landing!.headers();
  const policy = landingHeaders['content-security-policy'].split(';').map((directive) => directive.trim());
  expect(policy).toEqual(
    expect.arrayContaining(["form-action 'self'", "script-src 'self' 'wasm-unsafe-eval'", "default-src 'self'"]),
  );
  expect(landingHeaders['referrer-policy']).toBe('no-referrer');
  await page.getByRole('heading', { name: 'Speak up, you’re safe' }).waitFor();
  await page.getByText('Report an incident').waitFor();
  const secretCode = page.locator('input[name="uniquePassword"]');
  await secretCode.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Check incident status' }).click();
  await secretCode.waitFor();
  expect(await secretCode.getAttribute('placeholder')).toBe('Enter tracking number');
  await page.getByLabel('Your secret code').waitFor();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await secretCode.waitFor({ state: 'detached' });

  expect(foreignRequests).toEqual([]);
  expect(pageErrors).toEqual([]);
  await context.close();
});

test('when the discloser page has no serious accessibility violations, then axe-core agrees', async () => {
  // axe-core is injected as an inline script, which the page's CSP rightly refuses: bypass it for this check only.
  const context = await browser.newContext({ bypassCSP: true });
  const { page } = await openWatchedPage(context, platform.baseUrl);
  const urlIdentifier = await onboard(page, uniqueDomain());
  await page.goto(`${platform.baseUrl}/disclose/${urlIdentifier}`);
  await page.getByRole('heading', { name: 'Speak up, you’re safe' }).waitFor();
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await context.close();
});

test('when a discloser picks French, then the page is in French and the choice survives a reload', async () => {
  const context = await browser.newContext();
  const { page } = await openWatchedPage(context, platform.baseUrl);
  const urlIdentifier = await onboard(page, uniqueDomain());
  await page.goto(`${platform.baseUrl}/disclose/${urlIdentifier}`);
  await page.getByRole('heading', { name: 'Speak up, you’re safe' }).waitFor();
  await page.locator('header select').selectOption('fr');
  const frenchTitle = translationOf('mfe-disclose', 'disclose', 'Speak up, you’re safe', 'fr');
  await page.getByRole('heading', { name: frenchTitle }).waitFor();
  expect(await page.evaluate(() => localStorage.getItem('i18n-language'))).toBe('fr');
  await page.reload();
  await page.getByRole('heading', { name: frenchTitle }).waitFor();
  await page.getByText(translationOf('mfe-disclose', 'disclose', 'Report an incident', 'fr')).waitFor();
  await context.close();
});

test('when an admin signs the company up on the page in German, then the confirmation and welcome mails are in German', async () => {
  const context = await browser.newContext();
  const { page, pageErrors } = await openWatchedPage(context, platform.baseUrl);
  const domain = uniqueDomain();
  await page.goto(`${platform.baseUrl}/company/onboarding`);
  await page.locator('header select').selectOption('de');
  await page
    .getByRole('heading', { name: translationOf('shell', 'shell', 'Create a whistleblowing account', 'de') })
    .waitFor();
  await sendOnboardingForm(page, domain);
  const confirmation = await platform.mailbox(`ada@${domain}`, /^Bestätigen Sie das Whistle-Konto Ihres Unternehmens$/);
  // The link confirms the company; the welcome mail follows in the founding admin's language.
  await page.goto(confirmationLinkIn(confirmation));
  await page.waitForURL(/\/company\/[a-z0-9-]+\/success$/, { timeout: 30_000 });
  await platform.mailbox(`ada@${domain}`, /^Ihr Whistle-Konto für Acme Corporation ist bereit$/);
  expect(pageErrors).toEqual([]);
  await context.close();
});

test('when the disclose remote cannot be loaded, then a contained, translated fallback shows and the shell keeps working', async () => {
  const context = await browser.newContext();
  const { page } = await openWatchedPage(context, platform.baseUrl);
  const urlIdentifier = await onboard(page, uniqueDomain());
  await page.route('**/remotes/mfe-disclose/**', (route) => route.abort('connectionrefused'));
  await page.goto(`${platform.baseUrl}/disclose/${urlIdentifier}`);
  await page.getByText(translationOf('shell', 'common', /unavailable/i, 'en')).waitFor({ timeout: 30_000 });
  expect(await page.getByText('Unexpected Application Error!').count()).toBe(0);
  // The shell's own pages still work.
  await page.goto(`${platform.baseUrl}/company/onboarding`);
  await page.locator('input[name="company_name"]').waitFor();
  await context.close();
});

test('when the disclosure link names no company, then the discloser is told clearly', async () => {
  const context = await browser.newContext();
  const { page, pageErrors } = await openWatchedPage(context, platform.baseUrl);
  await page.goto(`${platform.baseUrl}/disclose/nobody-zzzzzz`);
  await page.getByText(translationOf('mfe-disclose', 'disclose', /not found/i, 'en')).waitFor();
  expect(pageErrors).toEqual([]);
  await context.close();
});
