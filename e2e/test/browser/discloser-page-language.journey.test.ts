import type { Browser } from 'playwright-core';
import { openWatchedPage } from '../../src/browser';
import { translationOf } from '../../src/locales';
import { apiToken, onboardCompany, type OnboardedCompany } from '../../src/staff';
import type { StandalonePlatform } from '../../src/standalone';
import { startPlatformAndBrowser } from '../../src/set-up';

/**
 * A discloser page in the visitor's language from its first byte (issue #29 item 5): the standalone server draws the
 * landing page's first view in the language the page will open in (the company's offered languages, the browser's
 * Accept-Language, the company's default) with its text in that language, announces that language's files only, and
 * the page then fetches no other language's files (no English fallback).
 */
let platform: StandalonePlatform;
let browser: Browser;
let company: OnboardedCompany;

const GERMAN_TITLE = 'Sprechen Sie mit uns, sicher';
const text = (english: string, language: string) => translationOf('mfe-disclose', 'disclose', english, language);
const escaped = (plain: string) => plain.replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/"/g, '&quot;');

async function put(path: string, body: unknown) {
  const token = await apiToken(platform.baseUrl, company.adminEmail);
  const response = await fetch(`${platform.baseUrl}${path}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
}

beforeAll(async () => {
  [platform, browser] = await startPlatformAndBrowser();
  company = await onboardCompany(platform);
  await put('/api/account/company/languages', { offered: ['en', 'de', 'fr', 'ar'], default: 'fr' });
  await put('/api/account/company/customization', { language: 'de', title: GERMAN_TITLE, description: null });
});
afterAll(async () => {
  await browser?.close();
  await platform?.dispose();
});

const landingHtml = async (acceptLanguage: string) =>
  (
    await fetch(`${platform.baseUrl}/disclose/${company.urlIdentifier}`, {
      headers: { accept: 'text/html', 'accept-language': acceptLanguage },
    })
  ).text();

test('when a German browser asks for the landing page, then its HTML is drawn in German, with German hints only', async () => {
  const html = await landingHtml('de-AT,de;q=0.9,en;q=0.5');
  expect(html).toMatch(/^<!doctype html><html lang="de" dir="ltr">/i);
  expect(html).toContain(`<h1>${GERMAN_TITLE}</h1>`);
  expect(html).toContain(`<title>${GERMAN_TITLE}</title>`);
  expect(html).toContain(`>${escaped(text('Report an incident', 'de'))}</a>`);
  expect(html).toContain(`>${escaped(text('Check incident status', 'de'))}</button>`);
  const hinted = [...html.matchAll(/href="\/locales\/([^/]+)\//g)].map(([, language]) => language);
  expect(hinted.length).toBeGreaterThan(0);
  expect([...new Set(hinted)]).toEqual(['de']);
});

test('when a browser prefers languages the company does not offer, then the page is drawn in its default', async () => {
  const html = await landingHtml('es,it;q=0.8');
  expect(html).toMatch(/<html lang="fr" dir="ltr">/);
  expect(html).toContain(`<h1>${escaped(text('Speak up, you’re safe', 'fr'))}</h1>`);
  expect(html).toContain('<link rel="preload" href="/locales/fr/disclose.json" as="fetch" crossorigin>');
  const arabic = await landingHtml('ar-EG');
  expect(arabic).toMatch(/<html lang="ar" dir="rtl">/);
  expect(arabic).toContain(`>${escaped(text('Report an incident', 'ar'))}</a>`);
});

test('when a German browser opens the landing page, then it fetches German files only and is never in another language', async () => {
  const context = await browser.newContext({ locale: 'de-DE', viewport: { width: 320, height: 568 } });
  const { page, foreignRequests, pageErrors } = await openWatchedPage(context, platform.baseUrl);
  const locales: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/locales/')) locales.push(pathname);
  });
  // The HTML's first view, before any script ran: German already.
  await page.goto(`${platform.baseUrl}/disclose/${company.urlIdentifier}`, { waitUntil: 'commit' });
  await expect(page.locator('h1').textContent()).resolves.toBe(GERMAN_TITLE);
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
  // The remote has taken it over: still German.
  await page.locator('#whistle-company-view').waitFor({ state: 'detached' });
  await page.getByRole('button', { name: text('Check incident status', 'de') }).click();
  await page.locator('input[name="uniquePassword"]').waitFor();
  await expect(page.locator('h1').textContent()).resolves.toBe(GERMAN_TITLE);
  await page.locator('a[href$="/create"]').click();
  await page.getByText(text('Stay anonymous', 'de'), { exact: true }).waitFor();
  await page.locator('form button[type="submit"]:enabled').click();
  await page.getByText(text('Your report cannot be sent yet. Please complete:', 'de')).waitFor();

  expect(locales.length).toBeGreaterThan(0);
  expect(locales.filter((file) => !file.startsWith('/locales/de/'))).toEqual([]);
  expect({ foreignRequests, pageErrors }).toEqual({ foreignRequests: [], pageErrors: [] });
  await context.close();
});
