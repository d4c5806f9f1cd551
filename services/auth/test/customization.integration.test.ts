/* eslint-disable max-lines -- one service per stack serves every case here; split, each file would start and migrate it again. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { JSDOM } from 'jsdom';
import { DISCLOSER_LANGUAGE_CODES, LOGO_MAX_BYTES, type CompanyPublicView } from '@whistle/contracts';
import { createRecordingMailer, type RecordingMailer } from '@whistle/mailer/testing';
import { DiskObjectStore, S3ObjectStore, type ObjectStore } from '@whistle/object-store';
import {
  createTestDependencies,
  testStacks,
  type TestDependencies,
  type TestStack,
} from '@whistle/service-kit/testing';
import { startS3Server, type TestS3Server } from '@whistle/test-support';
import { invitedMember, signedInAdmin } from './staff-client';
import { startAuth, type RunningAuth } from './support';

/** The smallest valid PNG (1×1, transparent): real magic bytes, as a browser would upload them. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const base64 = (bytes: Buffer | string) => Buffer.from(bytes).toString('base64');

/** Logos on disk for the embedded stack, on an S3 API for the cluster one, as each runs in production. */
async function logoStore(stack: TestStack): Promise<{ objects: ObjectStore; dispose(): Promise<void> }> {
  if (stack === 'pglite+in-process') {
    const folder = await mkdtemp(path.join(tmpdir(), 'whistle-auth-logos-'));
    return { objects: new DiskObjectStore(folder), dispose: () => rm(folder, { recursive: true, force: true }) };
  }
  const server: TestS3Server = await startS3Server();
  const objects = new S3ObjectStore({ ...server, bucket: 'whistle-test-logos' });
  await objects.ensureBucket();
  return {
    objects,
    async dispose() {
      await objects.close();
      await server.stop();
    },
  };
}

describe.each(testStacks)('landing page customisation on %s', (stack) => {
  let test$: TestDependencies;
  let store: Awaited<ReturnType<typeof logoStore>>;
  let auth: RunningAuth;
  let mailer: RecordingMailer;

  beforeAll(async () => {
    test$ = await createTestDependencies(stack);
    store = await logoStore(stack);
    mailer = createRecordingMailer();
    auth = await startAuth({ ...test$.deps, mailer, objects: store.objects });
  });
  afterAll(async () => {
    await auth?.close();
    await store?.dispose();
    await test$?.dispose();
  });

  async function company() {
    const co = await signedInAdmin(auth);
    const { client, adminToken, admin } = co;
    const own = await admin('GET', '/api/account/company/');
    const member = async (role: 'REVIEWER' | 'HANDLER') => (await invitedMember(auth, co, { roles: [role] })).token;
    const publicView = async () => {
      const response = await fetch(`${auth.baseUrl}/api/account/company/${own.body.url_identifier as string}`);
      expect(response.status).toBe(200);
      return (await response.json()) as Pick<CompanyPublicView, 'customization' | 'languages'>;
    };
    return {
      urlIdentifier: own.body.url_identifier as string,
      adminToken,
      member,
      publicView,
      call: (token: string, method: string, path: string, body?: unknown) =>
        client.call(method, path, { bearer: token, body }),
      admin,
    };
  }

  test('when nothing is customised, then the public view says null for each part (the defaults)', async () => {
    const co = await company();
    expect((await co.publicView()).customization).toEqual({
      title: null,
      description: null,
      logo_url: null,
      translations: {},
    });
    expect((await co.admin('GET', '/api/account/company/customization')).body).toEqual({
      title: null,
      description: null,
      logo_url: null,
      translations: {},
    });
  });

  test('when an admin sets a title and a description, then the public view carries them, the description sanitised', async () => {
    const co = await company();
    const before = await fetch(`${auth.baseUrl}/api/account/company/${co.urlIdentifier}`);
    const description = [
      '<h2 onclick="alert(1)">Who reads this</h2>',
      '<p>Only <strong>our</strong> <em>ethics</em> <u>team</u>.<br>',
      '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>',
      '<a href="javascript:alert(1)">bad link</a> <a href="https://ethics.example/policy" target="_self">policy</a>',
      ' <a href="mailto:ethics@example.com">mail</a></p>',
      '<ul><li>one</li></ul><ol><li>two</li></ol><h4 style="color:red" class="x" id="y">Small</h4>',
      '<iframe src="https://evil.example"></iframe><svg><script>x</script></svg>',
    ].join('');
    const saved = await co.admin('PUT', '/api/account/company/customization', {
      title: '  Talk to us, safely  ',
      description,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.title).toBe('Talk to us, safely');
    const stored = saved.body.description as string;
    for (const banned of [
      '<script',
      'onerror',
      'onclick',
      'javascript:',
      '<img',
      '<iframe',
      '<svg',
      'style=',
      'class=',
      'id=',
    ])
      expect(stored).not.toContain(banned);
    expect(stored).not.toContain('__pwned');

    // Read back with a DOM: the structure stays, every link is http(s)/mailto, new tab, no referrer, nofollow.
    const dom = new JSDOM(`<body>${stored}</body>`).window.document;
    expect(dom.querySelector('h2')?.textContent).toBe('Who reads this');
    expect(dom.querySelector('strong')?.textContent).toBe('our');
    expect(dom.querySelectorAll('em, u, br, ul > li, ol > li, h4')).toHaveLength(6);
    const links = [...dom.querySelectorAll('a')];
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      null,
      'https://ethics.example/policy',
      'mailto:ethics@example.com',
    ]);
    for (const link of links) {
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    }

    const view = await co.publicView();
    expect(view.customization).toEqual({
      title: 'Talk to us, safely',
      description: stored,
      logo_url: null,
      translations: {},
    });
    // The public view is revalidated by browsers (no-cache + ETag): a change gives another ETag, so no stale copy.
    const after = await fetch(`${auth.baseUrl}/api/account/company/${co.urlIdentifier}`, {
      headers: { 'if-none-match': before.headers.get('etag')! },
    });
    expect(after.status).toBe(200);
    expect(after.headers.get('cache-control')).toBe('no-cache');

    // Empty values bring the defaults back; so does a description with nothing visible left.
    const cleared = await co.admin('PUT', '/api/account/company/customization', {
      title: '   ',
      description: '<p><script>alert(1)</script></p>',
    });
    expect(cleared.body).toEqual({ title: null, description: null, logo_url: null, translations: {} });
  });

  test('when a title or description is too long or not text, then 400 names the field and nothing changes', async () => {
    const co = await company();
    await co.admin('PUT', '/api/account/company/customization', { title: 'Kept', description: '<p>Kept</p>' });
    const cases: Array<[unknown, Record<string, string[]>]> = [
      [{ title: 'x'.repeat(121), description: null }, { title: ['Ensure this field has no more than 120 characters'] }],
      [
        { title: null, description: `<p>${'x'.repeat(20_000)}</p>` },
        { description: ['Ensure this field has no more than 20000 characters'] },
      ],
      [{ title: 42, description: null }, { title: ['Invalid input: expected string, received number'] }],
    ];
    for (const [body, errors] of cases) {
      const response = await co.admin('PUT', '/api/account/company/customization', body);
      expect({ status: response.status, errors: response.body.errors }).toEqual({ status: 400, errors });
    }
    expect((await co.publicView()).customization).toMatchObject({ title: 'Kept', description: '<p>Kept</p>' });
  });

  test('when an admin offers some languages and writes a text in one, then the page offers those and shows that text in it', async () => {
    const co = await company();
    // A company that never chose offers every language of the platform, English first.
    expect((await co.publicView()).languages).toEqual({ offered: [...DISCLOSER_LANGUAGE_CODES], default: 'en' });

    const chosen = await co.admin('PUT', '/api/account/company/languages', {
      offered: ['en', 'de', 'fr'],
      default: 'de',
    });
    expect(chosen).toMatchObject({ status: 200, body: { offered: ['en', 'de', 'fr'], default: 'de' } });
    await co.admin('PUT', '/api/account/company/customization', { title: 'Speak up', description: '<p>Default</p>' });
    const german = await co.admin('PUT', '/api/account/company/customization', {
      language: 'de',
      title: 'Sprechen Sie es an',
      description: '<p onclick="x()">Nur <b>unser</b> Team</p><script>alert(1)</script>',
    });
    expect(german.status).toBe(200);
    // The default text is left as it was; the German one is sanitised like it.
    expect(german.body).toMatchObject({
      title: 'Speak up',
      description: '<p>Default</p>',
      translations: { de: { title: 'Sprechen Sie es an', description: '<p>Nur <b>unser</b> Team</p>' } },
    });
    await co.admin('PUT', '/api/account/company/customization', {
      language: 'sv',
      title: 'Säg till',
      description: null,
    });

    const view = await co.publicView();
    expect(view.languages).toEqual({ offered: ['en', 'de', 'fr'], default: 'de' });
    // Swedish is not offered: its text is kept for the admin, not served.
    expect(view.customization.translations).toEqual({
      de: { title: 'Sprechen Sie es an', description: '<p>Nur <b>unser</b> Team</p>' },
    });
    const own = await co.admin('GET', '/api/account/company/');
    expect(own.body.languages).toEqual({ offered: ['en', 'de', 'fr'], default: 'de' });
    expect(Object.keys(own.body.translations as object).sort()).toEqual(['de', 'sv']);

    // Both parts empty removes a language's text: that language shows the default text again.
    await co.admin('PUT', '/api/account/company/customization', { language: 'de', title: '', description: null });
    expect((await co.publicView()).customization.translations).toEqual({});
    // Offering every language again stores no list: a language the platform adds later is offered as well.
    await co.admin('PUT', '/api/account/company/languages', { offered: [...DISCLOSER_LANGUAGE_CODES], default: 'en' });
    expect((await co.publicView()).languages.offered).toEqual([...DISCLOSER_LANGUAGE_CODES]);
  });

  test('when the languages asked are none, unknown, repeated or leave the default out, then 400 says which and nothing changes', async () => {
    const co = await company();
    await co.admin('PUT', '/api/account/company/languages', { offered: ['en', 'fr'], default: 'fr' });
    const cases: Array<[unknown, Record<string, string[]>]> = [
      [
        { offered: [], default: 'en' },
        {
          offered: ['Offer at least one language'],
          default: ['The default language must be one of the offered languages'],
        },
      ],
      [{ offered: ['en', 'xx'], default: 'en' }, { 'offered.1': ['Unknown language'] }],
      [{ offered: ['en', 'en'], default: 'en' }, { offered: ['Each language once'] }],
      [
        { offered: ['en', 'fr'], default: 'de' },
        { default: ['The default language must be one of the offered languages'] },
      ],
      [{ offered: ['en'], default: 'klingon' }, { default: ['Unknown language'] }],
    ];
    for (const [body, errors] of cases) {
      const response = await co.admin('PUT', '/api/account/company/languages', body);
      expect({ body, status: response.status, errors: response.body.errors }).toEqual({ body, status: 400, errors });
    }
    const text = await co.admin('PUT', '/api/account/company/customization', {
      language: 'xx',
      title: 'x',
      description: null,
    });
    expect({ status: text.status, errors: text.body.errors }).toEqual({
      status: 400,
      errors: { language: ['Unknown language'] },
    });
    expect((await co.publicView()).languages).toEqual({ offered: ['en', 'fr'], default: 'fr' });
  });

  test('when an admin uploads a PNG, then it is served at the public URL with its caching and safety headers', async () => {
    const co = await company();
    const uploaded = await co.admin('PUT', '/api/account/company/customization/logo', { content: base64(PNG) });
    expect(uploaded.status).toBe(200);
    const logoUrl = uploaded.body.logo_url as string;
    expect(logoUrl).toMatch(new RegExp(`^/api/account/company/${co.urlIdentifier}/logo\\?v=[0-9a-f]{16}$`));
    expect((await co.publicView()).customization.logo_url).toBe(logoUrl);
    expect((await co.admin('GET', '/api/account/company/')).body.logo).toBe(logoUrl);

    const served = await fetch(`${auth.baseUrl}${logoUrl}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);

    // Without the current hash (an old link): revalidated, and 304 while the ETag still matches.
    const unversioned = await fetch(`${auth.baseUrl}/api/account/company/${co.urlIdentifier}/logo`);
    expect(unversioned.headers.get('cache-control')).toBe('public, no-cache');
    const etag = unversioned.headers.get('etag')!;
    const revalidated = await fetch(`${auth.baseUrl}/api/account/company/${co.urlIdentifier}/logo`, {
      headers: { 'if-none-match': etag },
    });
    expect(revalidated.status).toBe(304);

    // Removing it: the default again, and the old address answers 404.
    const removed = await co.admin('DELETE', '/api/account/company/customization/logo');
    expect(removed.status).toBe(200);
    expect(removed.body.logo_url).toBeNull();
    expect((await co.publicView()).customization.logo_url).toBeNull();
    expect((await fetch(`${auth.baseUrl}${logoUrl}`)).status).toBe(404);
  });

  test('when an SVG carries script, handlers, foreignObject or outside references, then only the drawing is kept', async () => {
    const co = await company();
    const svg = `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="40" onload="alert(1)">
  <script>alert(2)</script>
  <style>@import url(https://evil.example/x.css);</style>
  <defs><linearGradient id="g"><stop offset="0" stop-color="#123"/></linearGradient></defs>
  <rect width="40" height="40" fill="url(#g)" onclick="alert(3)"/>
  <circle cx="20" cy="20" r="5" fill="url(https://evil.example/track)"/>
  <use xlink:href="https://evil.example/sprite.svg#a"/>
  <image href="https://evil.example/pixel.png"/>
  <a href="javascript:alert(4)"><text>link</text></a>
  <foreignObject><div xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(5)"/></div></foreignObject>
</svg>`;
    const uploaded = await co.admin('PUT', '/api/account/company/customization/logo', { content: base64(svg) });
    expect(uploaded.status).toBe(200);
    const served = await fetch(`${auth.baseUrl}${uploaded.body.logo_url as string}`);
    expect(served.headers.get('content-type')).toBe('image/svg+xml');
    expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    const stored = await served.text();
    for (const banned of [
      '<script',
      'alert',
      'onload',
      'onclick',
      'evil.example',
      'foreignObject',
      '<style',
      '<image',
      'javascript:',
    ])
      expect(stored).not.toContain(banned);
    // Still an SVG document a browser can show: namespaced root, the gradient and its internal reference.
    const parsed = new JSDOM(stored, { contentType: 'image/svg+xml' }).window.document;
    expect(parsed.documentElement.namespaceURI).toBe('http://www.w3.org/2000/svg');
    expect(parsed.querySelector('rect')?.getAttribute('fill')).toBe('url(#g)');
    expect(parsed.querySelector('linearGradient')).not.toBeNull();
  });

  test('when the logo is not a PNG, JPEG or SVG by its bytes, or too big, then 400 says so and nothing is stored', async () => {
    const co = await company();
    const typeError = { content: ['The logo must be a PNG, JPEG or SVG image'] };
    const sizeError = { content: ['Max logo size is 512 kB'] };
    const cases: Array<[string, unknown, Record<string, string[]>]> = [
      ['a text file named logo.png', { content: base64('just some text, named logo.png') }, typeError],
      ['a GIF', { content: base64(Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1')) }, typeError],
      ['HTML', { content: base64('<html><script>alert(1)</script></html>') }, typeError],
      ['an SVG with an entity subset', { content: base64('<!DOCTYPE svg [<!ENTITY a "b">]><svg/>') }, typeError],
      ['not base64', { content: 'not base64 at all!' }, typeError],
      [
        'a PNG one byte too big',
        { content: base64(Buffer.concat([PNG, Buffer.alloc(LOGO_MAX_BYTES - PNG.length + 1)])) },
        sizeError,
      ],
      ['nothing', {}, { content: ['This field is required'] }],
    ];
    for (const [what, body, errors] of cases) {
      const response = await co.admin('PUT', '/api/account/company/customization/logo', body);
      expect({ what, status: response.status, errors: response.body.errors }).toEqual({ what, status: 400, errors });
    }
    // Far over any logo: the body limit answers before anything is parsed.
    const huge = await co.admin('PUT', '/api/account/company/customization/logo', {
      content: 'A'.repeat(2 * 1024 * 1024),
    });
    expect(huge.status).toBe(413);
    expect((await co.publicView()).customization.logo_url).toBeNull();
  });

  test('when a reviewer or a handler tries any customisation call, then 403; without a token 401', async () => {
    const co = await company();
    for (const role of ['REVIEWER', 'HANDLER'] as const) {
      const token = await co.member(role);
      const calls: Array<[string, string, unknown?]> = [
        ['GET', '/api/account/company/customization'],
        ['PUT', '/api/account/company/customization', { title: 'Mine', description: null }],
        ['PUT', '/api/account/company/customization/logo', { content: base64(PNG) }],
        ['DELETE', '/api/account/company/customization/logo'],
        ['PUT', '/api/account/company/languages', { offered: ['en'], default: 'en' }],
      ];
      for (const [method, path, body] of calls) {
        const response = await co.call(token, method, path, body);
        expect({ role, method, path, status: response.status }).toEqual({ role, method, path, status: 403 });
      }
    }
    const anonymous = await fetch(`${auth.baseUrl}/api/account/company/customization`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'x', description: null }),
    });
    expect(anonymous.status).toBe(401);
    expect((await co.publicView()).customization).toEqual({
      title: null,
      description: null,
      logo_url: null,
      translations: {},
    });
  });

  test("when company B's admin customises, then only company B changes", async () => {
    const a = await company();
    const b = await company();
    await a.admin('PUT', '/api/account/company/customization', { title: 'A title', description: '<p>A</p>' });
    const aLogo = (await a.admin('PUT', '/api/account/company/customization/logo', { content: base64(PNG) })).body
      .logo_url as string;

    await b.admin('PUT', '/api/account/company/customization', { title: 'B title', description: null });
    await b.admin('DELETE', '/api/account/company/customization/logo');

    expect((await a.publicView()).customization).toEqual({
      title: 'A title',
      description: '<p>A</p>',
      logo_url: aLogo,
      translations: {},
    });
    expect((await fetch(`${auth.baseUrl}${aLogo}`)).status).toBe(200);
    expect((await b.publicView()).customization).toEqual({
      title: 'B title',
      description: null,
      logo_url: null,
      translations: {},
    });
    // B's address does not serve A's logo.
    expect((await fetch(`${auth.baseUrl}/api/account/company/${b.urlIdentifier}/logo`)).status).toBe(404);
  });
});
