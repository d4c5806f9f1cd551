// The landing page drawn into the HTML by the standalone server, on the real build of the shell and mfe-disclose.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import express from 'express';
import type { CompanyPublicView } from '@whistle/contracts';
import { frontendDist, frontendRouter } from '../src/frontends';
import { pageTemplate } from '../src/page';

const rootDir = path.resolve(__dirname, '..', '..');
const company: CompanyPublicView = {
  name: 'Acme </span><script>alert(1)</script>',
  url_identifier: 'acme',
  public_key: 'a-public-key',
  customization: {
    title: '<script>alert("title")</script> & co',
    description: null,
    logo_url: null,
    translations: { de: { title: 'Sprechen Sie mit uns', description: null } },
  },
  languages: { offered: ['en', 'de', 'ar', 'fr'], default: 'fr' },
} as unknown as CompanyPublicView;
const strings = (language: string) =>
  JSON.parse(readFileSync(path.join(rootDir, 'mfe-disclose', 'locales', language, 'disclose.json'), 'utf8'));

let server: Server;
let base: string;
const asked: string[] = [];
beforeAll(async () => {
  const app = express().use(
    frontendRouter(rootDir, {
      companyView: async (urlIdentifier) => {
        asked.push(urlIdentifier);
        if (urlIdentifier === 'broken') throw new Error('auth is down');
        return urlIdentifier === 'acme' ? company : undefined;
      },
    }),
  );
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const page = async (urlPath: string, acceptLanguage = 'en-GB,en;q=0.8') => {
  const response = await fetch(`${base}${urlPath}`, {
    headers: { accept: 'text/html', 'accept-language': acceptLanguage },
  });
  return { status: response.status, headers: response.headers, html: await response.text() };
};

test('the landing page holds the title, name and actions escaped, and the view as a data block', async () => {
  const { status, html, headers } = await page('/disclose/acme');
  expect(status).toBe(200);
  expect(headers.get('cache-control')).toBe('no-cache');
  expect(html).toContain('<title>&lt;script&gt;alert(&quot;title&quot;)&lt;/script&gt; &amp; co</title>');
  expect(html).toContain('<h1>&lt;script&gt;alert(&quot;title&quot;)&lt;/script&gt; &amp; co</h1>');
  expect(html).toContain('Acme &lt;/span&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
  expect(html).toContain('<a class="wh-button wh-button--primary" href="/disclose/acme/create">Report an incident</a>');
  // A tap on the drawn status button would be lost before the remote is there: it says it is unavailable.
  expect(html).toContain(
    '<button type="button" class="wh-button wh-button--secondary" aria-disabled="true">Check incident status</button>',
  );
  // No script element but the shell's entry and the data block (which `<` escaped cannot end early).
  expect(html.match(/<script[^>]*>/g)).toEqual([
    '<script defer src=/main.js>',
    '<script type="application/json" id="whistle-company-view">',
  ]);
  const block = /<script type="application\/json" id="whistle-company-view">(.*?)<\/script>/.exec(html)![1];
  expect(block).not.toContain('<');
  expect(JSON.parse(block)).toEqual(company);
});

test('the create page is drawn in its language: heading, the anonymity choice disabled, the chooser on it', async () => {
  const { html } = await page('/disclose/acme/create', 'de-AT');
  const text = strings('de').create;
  expect(html).toMatch(/<html lang="de" dir="ltr">/);
  expect(html).toContain(`<h1>${text.title}</h1>`);
  expect(html).toContain(`<legend class="wh-field__label">${text.anonymity.legend}</legend>`);
  // Until the form is there, no choice can be made that it would undo.
  expect(html).toContain('name="report_anonymously" value="true" checked disabled>');
  expect(html).toContain('<select id="drawn-language" class="wh-input wh-language__select" disabled>');
  // The offered languages only, each in its own name, the page's own selected.
  expect(
    [...html.matchAll(/<option value="(\w+)" lang="\1"( selected)?>([^<]+)</g)].map(([, code, on, name]) => [
      code,
      !!on,
      name,
    ]),
  ).toEqual([
    ['en', false, 'English'],
    ['de', true, 'Deutsch'],
    ['ar', false, 'العربية'],
    ['fr', false, 'Français'],
  ]);
  // The company's name escaped in the header, as on the landing page.
  expect(html).toContain(
    '<span class="disclose-company-name">Acme &lt;/span&gt;&lt;script&gt;alert(1)&lt;/script&gt;</span>',
  );
});

test('the success and review pages opened by their address are the landing page, with its hints only', async () => {
  // What they show lives in the page's memory, which a new page has not: the remote shows the landing page there.
  const landing = (await page('/disclose/acme', 'de')).html;
  for (const other of ['/disclose/acme/success', '/disclose/acme/review/']) {
    expect([other, (await page(other, 'de')).html]).toEqual([other, landing]);
  }
  expect(landing).toContain('class="wh-card disclose-landing"');
  // Neither React Router nor a routed page: the landing page does without them.
  expect(landing).not.toMatch(/routed-app|success-page|review-page/);
});

test('the staff login page is drawn in the staff language the browser prefers, its form disabled', async () => {
  const german = await page('/company/login?next=%2Fcompany%2Fsettings%22%3E%3Cscript%3E', 'de-CH,de;q=0.9');
  const text = JSON.parse(readFileSync(path.join(rootDir, 'shell', 'locales', 'de', 'shell.json'), 'utf8')).login;
  expect(german.headers.get('vary')).toMatch(/accept-language/i);
  expect(german.html).toMatch(/^<!doctype html><html lang="de" dir="ltr"><head>/);
  expect(german.html).toContain(`<title>${text.title}</title>`);
  expect(german.html).toContain(`<h1 id="login-title">${text.title}</h1>`);
  expect(german.html).toContain(
    `<label class="wh-field__label" for="drawn-email">${text.email}</label>` +
      '<input name="email" type="email" autocomplete="username" required disabled id="drawn-email" class="wh-input">',
  );
  expect(german.html).toContain('name="password" type="password" autocomplete="current-password" required disabled');
  expect(german.html).toContain(
    `<button type="submit" class="wh-button wh-button--primary" disabled>${text.submit}</button>`,
  );
  // Where the sign-in leads stays with the SSO link, escaped.
  expect(german.html).toContain('href="/company/login/sso?next=%2Fcompany%2Fsettings%22%3E%3Cscript%3E"');
  expect(german.html).toContain('<option value="de" lang="de" selected>Deutsch</option>');
  expect(german.html).not.toContain('<option value="ar"');
  // The shell's German texts, its public pages' code and stylesheet: nothing of a discloser's.
  expect(hintedLanguages(german.html)).toEqual(['de']);
  expect(german.html).toMatch(/<style data-href="\/public-pages\.[0-9a-f]{8}\.css">/);
  expect(german.html).toMatch(/<link rel="preload" href="\/public-pages\.[0-9a-f]{8}\.js" as="script">/);
  expect(german.html).not.toContain('mfe-disclose');
  expect(german.html.match(/<script[^>]*>/g)).toEqual(['<script defer src=/main.js>']);
  for (const [, href] of german.html.matchAll(/<(?:link rel="preload" href|style data-href)="([^"]+)"/g)) {
    expect([href, (await fetch(`${base}${href}`)).status]).toEqual([href, 200]);
  }
  // Arabic has no staff pages: English, as at `/`, which is the login page too.
  const other = await page('/', 'ar-MA');
  expect(other.html).toMatch(/<html lang="en" dir="ltr">/);
  expect(other.html).toContain('<h1 id="login-title">Log in</h1>');
  expect(other.html).toContain('href="/company/login/sso"');
  // Other staff pages are not drawn.
  expect((await page('/company/password/reset', 'de')).html).toContain('<div id=single-spa-application:shell></div>');
});

test("a company's texts holding $ patterns are drawn as written, not read as String.replace patterns", async () => {
  // `$&` and `$'` in a replacement string would insert the matched text or the rest of the page; `$$` one `$`.
  const dollars = "Fees of $$ 5, $& and $' kept";
  company.customization.title = dollars;
  company.customization.description = `Ask us: ${dollars}`;
  try {
    for (const urlPath of ['/disclose/acme', '/disclose/acme/create']) {
      const { html } = await page(urlPath);
      const block = /<script type="application\/json" id="whistle-company-view">(.*?)<\/script>/.exec(html)![1];
      expect(JSON.parse(block).customization).toMatchObject({ title: dollars, description: `Ask us: ${dollars}` });
      if (urlPath === '/disclose/acme') {
        const escaped = 'Fees of $$ 5, $&amp; and $&#39; kept';
        expect(html).toContain(`<title>${escaped}</title>`);
        expect(html).toContain(`<h1>${escaped}</h1>`);
      }
      expect(html.match(/<\/html>/g)).toHaveLength(1);
    }
  } finally {
    company.customization.title = '<script>alert("title")</script> & co';
    company.customization.description = null;
  }
});

test('every discloser page announces the remote, its first files and the translations', async () => {
  const { html } = await page('/disclose/acme/create');
  // The company's other pages get its view only (their own markup is the remote's).
  expect(html).not.toContain('class="wh-card disclose-landing"');
  expect(html).toContain('<script type="application/json" id="whistle-company-view">');
  expect(html).toContain('<link rel="preload" href="/remotes/mfe-disclose/remoteEntry.js" as="script">');
  expect(html).toMatch(
    /<link rel="preload" href="\/remotes\/mfe-disclose\/__federation_expose_lifecycles\.[0-9a-f]{8}\.js" as="script">/,
  );
  expect(html).toMatch(/<style data-href="\/remotes\/mfe-disclose\/__federation_expose_lifecycles\.[0-9a-f]{8}\.css">/);
  expect(html).toContain('<link rel="preload" href="/locales/en/disclose.json" as="fetch" crossorigin>');
  expect(html).toContain('<link rel="preload" href="/locales/en/common.json" as="fetch" crossorigin>');
  // The shell's staff texts are not loaded on a discloser page.
  expect(html).not.toContain('/locales/en/shell.json');
  // The shared UI's stylesheet (the frame, cards and buttons the drawn page uses), as the shell names it.
  expect(html).toMatch(/<style data-href="\/\d+\.[0-9a-f]{8}\.css">/);
  // A file each hint names is there.
  for (const [, href] of html.matchAll(/<(?:link rel="preload" href|style data-href)="([^"]+)"/g)) {
    expect([href, (await fetch(`${base}${href}`)).status]).toEqual([href, 200]);
  }
  // Staff pages load none of it, only the shell's manifest and translations.
  const staff = (await page('/company/login')).html;
  expect(staff).not.toContain('mfe-disclose');
  expect(staff).toContain('<link rel="preload" href="/locales/en/shell.json" as="fetch" crossorigin>');
});

/** The languages whose translations a page announces. */
const hintedLanguages = (html: string) => [
  ...new Set([...html.matchAll(/<link rel="preload" href="\/locales\/([^/]+)\//g)].map(([, language]) => language)),
];

test("a company's pages are drawn in the browser's language it offers, with that language's files only", async () => {
  const german = await page('/disclose/acme', 'de-CH,de;q=0.9,en;q=0.5');
  expect(german.headers.get('vary')).toMatch(/accept-language/i);
  expect(german.html).toMatch(/^<!doctype html><html lang="de" dir="ltr"><head>/);
  expect(german.html).toContain('<title>Sprechen Sie mit uns</title>');
  expect(german.html).toContain('<h1>Sprechen Sie mit uns</h1>');
  expect(german.html).toContain(`<h2 id="assurances-title">${strings('de').landing.assurancesTitle}</h2>`);
  expect(german.html).toContain(`href="/disclose/acme/create">${strings('de').landing.report}</a>`);
  expect(german.html).toContain(`>${strings('de').landing.checkStatus}</button>`);
  expect(hintedLanguages(german.html)).toEqual(['de']);
  expect(hintedLanguages((await page('/disclose/acme/review', 'de')).html)).toEqual(['de']);

  // Arabic: right to left; the company's default title (it wrote none in Arabic).
  const arabic = await page('/disclose/acme', 'ar-MA');
  expect(arabic.html).toMatch(/<html lang="ar" dir="rtl">/);
  expect(arabic.html).toContain('<h1>&lt;script&gt;alert(&quot;title&quot;)&lt;/script&gt; &amp; co</h1>');
  expect(arabic.html).toContain(`>${strings('ar').landing.checkStatus}</button>`);
  expect(hintedLanguages(arabic.html)).toEqual(['ar']);

  // Nothing offered among the browser's languages (Spanish, Italian), or no header: the company's default, French.
  for (const acceptLanguage of ['es-ES,it;q=0.5', '']) {
    const { html } = await page('/disclose/acme/create', acceptLanguage);
    expect(html).toMatch(/<html lang="fr" dir="ltr">/);
    expect(hintedLanguages(html)).toEqual(['fr']);
  }
});

test("the shell's files are hinted once each, as its runtime loads them", async () => {
  const { html } = await page('/disclose/acme');
  const hinted = [...html.matchAll(/<link rel="preload" href="\/(\d+\.[0-9a-f]{8}\.js)" as="script">/g)].map(
    ([, file]) => file,
  );
  expect(hinted.length).toBeGreaterThan(0);
  // A chunk file names the chunks it holds: react-dom's module is in two files, the page needs one of them.
  const held = hinted.flatMap((file) => {
    const ids = /\.push\(\[\[([\d,]+)\]/.exec(readFileSync(path.join(rootDir, 'shell', 'dist', file), 'utf8'))![1];
    return ids.split(',');
  });
  expect(new Set(held).size).toBe(held.length);
});

/** GET as a browser revalidates (fetch would add `Cache-Control: no-cache` to a conditional request). */
const head = (urlPath: string, headers: Record<string, string>) =>
  new Promise<{ status: number; headers: Record<string, string | string[] | undefined> }>((resolve, reject) =>
    request(`${base}${urlPath}`, { headers }, (response) => {
      response.resume().on('end', () => resolve({ status: response.statusCode!, headers: response.headers }));
    })
      .on('error', reject)
      .end(),
  );

test('a made page revalidates: each encoding has its own ETag and answers 304 to it', async () => {
  const etags = new Set<string>();
  for (const encoding of ['br', 'gzip', 'identity']) {
    const first = await head('/disclose/acme', { accept: 'text/html', 'accept-encoding': encoding });
    expect(first.headers.vary).toMatch(/accept-encoding/i);
    expect(first.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding);
    const etag = String(first.headers.etag);
    etags.add(etag);
    const again = await head('/disclose/acme', {
      accept: 'text/html',
      'accept-encoding': encoding,
      'if-none-match': etag,
    });
    expect(again.status).toBe(304);
  }
  expect(etags.size).toBe(3);
});

test('an unknown company, or a view that cannot be read, gets the page without a drawn landing', async () => {
  for (const id of ['nobody', 'broken']) {
    const { status, html } = await page(`/disclose/${id}`);
    expect(status).toBe(200);
    expect(html).not.toContain('class="wh-card disclose-landing"');
    expect(html).not.toContain('whistle-company-view');
    expect(html).toContain('id=single-spa-application:mfe_disclose></div>');
  }
  expect(asked).toEqual(expect.arrayContaining(['nobody', 'broken']));
});

test("a drawn page's first stylesheets are inlined as their files are, and its CSP allows exactly those", async () => {
  const { styleHashes } = pageTemplate(frontendDist(rootDir, 'shell'), frontendDist(rootDir, 'mfe-disclose'));
  const inlined = new Map<string, string>();
  for (const urlPath of ['/disclose/acme', '/disclose/acme/create', '/disclose/unknown', '/company/login']) {
    const { html } = await page(urlPath);
    // Linked, each would be one more round trip before the first paint: only a disabled marker for each.
    expect(html.match(/<link rel="stylesheet"[^>]*>/g)?.filter((link) => !/ disabled>$/.test(link)) ?? []).toEqual([]);
    for (const [, href, css] of html.matchAll(/<style data-href="([^"]+)">([^<]*)<\/style>/g)) inlined.set(href!, css!);
  }
  expect(inlined.size).toBeGreaterThanOrEqual(3);
  for (const [href, css] of inlined) {
    // The same bytes as the file, so mini-css-extract, finding it by data-href, rightly does not load it again.
    expect([href, await (await fetch(`${base}${href}`)).text()]).toEqual([href, css]);
  }
  const hashOf = (css: string) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`;
  expect([...styleHashes].sort()).toEqual([...new Set([...inlined.values()].map(hashOf))].sort());
});
