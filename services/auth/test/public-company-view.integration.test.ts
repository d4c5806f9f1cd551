import {
  createRecordingLogger,
  createTestDatabase,
  createTestDependencies,
  deleteRabbitTopology,
  testAmqpUrl,
  testStacks,
  uniqueTestName,
  waitFor,
  type TestDatabase,
  type TestDependencies,
} from '@whistle/service-kit/testing';
import { openDatabase, openEventBus, type Database, type EventBus } from '@whistle/service-kit';
import { adminPassword, onboardCompany, staffClient } from './staff-client';
import { startAuth, type RunningAuth } from './support';

/** The smallest valid PNG (1×1, transparent). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });

/** A new company onboarded on `baseUrl`, its admin's calls (on any replica) and its public view (from any replica). */
async function companyOn(auth: RunningAuth) {
  const { baseUrl } = auth;
  const onboarded = await onboardCompany(auth);
  const token = (await staffClient(baseUrl).login(onboarded.email, adminPassword)).body.token as string;
  const admin = (method: string, path: string, body?: unknown, on = baseUrl) =>
    staffClient(on).call(method, path, { bearer: token, body });
  const own = await admin('GET', '/api/account/company/');
  const urlIdentifier = own.body.url_identifier as string;
  const view = async (on = baseUrl) => {
    const response = await get(`${on}/api/account/company/${urlIdentifier}`);
    expect(response.status).toBe(200);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { etag: response.headers.get('etag')!, body: (await response.json()) as Record<string, any> };
  };
  return { admin, urlIdentifier, view };
}

describe.each(testStacks)('public company view, its cache and its validators on %s', (stack) => {
  let test$: TestDependencies;
  let auth: RunningAuth;

  beforeAll(async () => {
    test$ = await createTestDependencies(stack);
    auth = await startAuth(test$.deps);
  });
  afterAll(async () => {
    await auth?.close();
    await test$?.dispose();
  });

  const company = () => companyOn(auth);

  it('when a category has default assignees with keys, then the view lists their public keys by opaque key id only, never who they are', async () => {
    const co = await company();
    const own = await co.admin('GET', '/api/account/company/');
    const adminProfile = own.body.user_profiles[0] as { uuid: string; full_name: string };
    const keys = await co.admin('GET', '/api/account/profile/keys');
    const created = await co.admin('POST', '/api/account/company/category', {
      name: 'Assigned by default',
      management_categories: [],
      user_profiles: [adminProfile.uuid],
    });
    expect(created.status).toBe(201);
    const { body } = await co.view();
    const category = body.categories.find((c: { name: string }) => c.name === 'Assigned by default');
    expect(category.recipient_keys).toEqual([
      {
        key_id: expect.any(String),
        public_key: keys.body.person.public_key,
        // Pinned by the report form for the discloser's page to check signatures (docs/security.md).
        signing_public_key: keys.body.person.signing_public_key,
        role: 'ADMIN',
        display_name: null,
      },
    ]);
    expect(category.recipient_keys[0].key_id).not.toBe(adminProfile.uuid);
    const others = body.categories.filter((c: { name: string }) => c.name !== 'Assigned by default');
    expect(others.every((c: { recipient_keys: unknown[] }) => c.recipient_keys.length === 0)).toBe(true);
    const text = JSON.stringify(body);
    expect(text).not.toContain(adminProfile.uuid);
    expect(text).not.toContain(adminProfile.full_name);
  });

  it('when the company shows the case team on the report form, then its readers carry their names; until then only their roles', async () => {
    const co = await company();
    const own = await co.admin('GET', '/api/account/company/');
    const adminProfile = own.body.user_profiles[0] as { uuid: string; full_name: string };
    expect(own.body.settings.shows_recipient_names).toBe(false);
    const hidden = (await co.view()).body;
    expect(hidden.shows_recipient_names).toBe(false);
    expect(hidden.every_case_keys).toEqual([
      {
        key_id: expect.any(String),
        public_key: expect.any(String),
        signing_public_key: expect.any(String),
        role: 'ADMIN',
        display_name: null,
      },
    ]);

    const turnedOn = await co.admin('PUT', '/api/account/company/', { settings: { shows_recipient_names: true } });
    expect(turnedOn.status).toBe(200);
    expect((await co.admin('GET', '/api/account/company/')).body.settings.shows_recipient_names).toBe(true);
    const shown = (await co.view()).body;
    expect(shown.shows_recipient_names).toBe(true);
    expect(shown.every_case_keys).toEqual([{ ...hidden.every_case_keys[0], display_name: adminProfile.full_name }]);
    // Still no user id: the form names people, it never learns who they are in the system.
    expect(JSON.stringify(shown)).not.toContain(adminProfile.uuid);
  });

  it('when the view is asked again with its ETag, then it is a bodiless 304; any other validator gets the view', async () => {
    const co = await company();
    const first = await get(`${auth.baseUrl}/api/account/company/${co.urlIdentifier}`);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    expect(first.headers.get('content-type')).toMatch(/^application\/json/);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]{20,}"$/);
    expect(((await first.json()) as { name: string }).name).toBe('Globex');

    const revalidated = await get(`${auth.baseUrl}/api/account/company/${co.urlIdentifier}`, {
      'if-none-match': etag,
    });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get('etag')).toBe(etag);
    expect(await revalidated.text()).toBe('');
    const inList = await get(`${auth.baseUrl}/api/account/company/${co.urlIdentifier}`, {
      'if-none-match': `"other", ${etag}`,
    });
    expect(inList.status).toBe(304);
    const weak = await get(`${auth.baseUrl}/api/account/company/${co.urlIdentifier}`, { 'if-none-match': `W/${etag}` });
    expect(weak.status).toBe(304);
    const other = await get(`${auth.baseUrl}/api/account/company/${co.urlIdentifier}`, { 'if-none-match': '"other"' });
    expect(other.status).toBe(200);
    expect(other.headers.get('etag')).toBe(etag);
  });

  it('when the database changes without an announcement, then the cached view is served; announced edits of the company, a category, a location and the landing page are seen at once, each with a new ETag', async () => {
    const co = await company();
    const before = await co.view();
    // An edit changes the ETag; two states with the same content (a label added, then removed) share one.
    let previous = before.etag;
    const newEtag = (etag: string) => {
      expect(etag).not.toBe(previous);
      previous = etag;
    };

    // Written behind the service's back: no notification, so the cache keeps answering what it holds.
    await test$.deps.db.query(`update auth.company set name = 'Unannounced' where url_identifier = $1`, [
      co.urlIdentifier,
    ]);
    expect((await co.view()).body.name).toBe('Globex');

    expect((await co.admin('PUT', '/api/account/company', { name: 'Initech', country: 'FR' })).status).toBe(200);
    const renamed = await co.view();
    expect(renamed.body.name).toBe('Initech');
    newEtag(renamed.etag);

    const category = await co.admin('POST', '/api/account/company/category', {
      name: 'Cache check',
      management_categories: [],
    });
    expect(category.status).toBe(201);
    const withCategory = await co.view();
    expect(withCategory.body.categories.map((c: { name: string }) => c.name)).toContain('Cache check');
    newEtag(withCategory.etag);

    expect(
      (await co.admin('PUT', `/api/account/company/category/${category.body.uuid}`, { is_active: false })).status,
    ).toBe(200);
    const withoutCategory = await co.view();
    expect(withoutCategory.body.categories.map((c: { name: string }) => c.name)).not.toContain('Cache check');
    newEtag(withoutCategory.etag);

    const location = await co.admin('POST', '/api/account/company/location', { name: 'Lyon office' });
    expect(location.status).toBe(201);
    const withLocation = await co.view();
    expect(withLocation.body.locations.map((l: { name: string }) => l.name)).toContain('Lyon office');
    newEtag(withLocation.etag);

    expect((await co.admin('DELETE', `/api/account/company/location/${location.body.uuid}`)).status).toBe(200);
    const withoutLocation = await co.view();
    expect(withoutLocation.body.locations.map((l: { name: string }) => l.name)).not.toContain('Lyon office');
    newEtag(withoutLocation.etag);

    const titled = await co.admin('PUT', '/api/account/company/customization', {
      title: 'Speak up safely',
      description: null,
    });
    expect(titled.status).toBe(200);
    const withTitle = await co.view();
    expect(withTitle.body.customization.title).toBe('Speak up safely');
    newEtag(withTitle.etag);

    expect(
      (await co.admin('PUT', '/api/account/company/customization/logo', { content: PNG.toString('base64') })).status,
    ).toBe(200);
    const withLogo = await co.view();
    expect(withLogo.body.customization.logo_url).toMatch(/\/logo\?v=/);
    newEtag(withLogo.etag);

    const stale = await get(`${auth.baseUrl}/api/account/company/${co.urlIdentifier}`, {
      'if-none-match': before.etag,
    });
    expect(stale.status).toBe(200);
  });

  it('when the QR code and the logo are asked again with their ETags, then they are 304s; a new logo changes the ETag', async () => {
    const co = await company();
    const qr = await get(`${auth.baseUrl}/api/account/company/${co.urlIdentifier}/qrcode`);
    expect(qr.status).toBe(200);
    expect(qr.headers.get('content-type')).toBe('image/png');
    expect(qr.headers.get('cache-control')).toBe('public, max-age=3600');
    const qrEtag = qr.headers.get('etag')!;
    expect(qrEtag).toMatch(/^"[\w-]{20,}"$/);
    const qrAgain = await get(`${auth.baseUrl}/api/account/company/${co.urlIdentifier}/qrcode`, {
      'if-none-match': qrEtag,
    });
    expect(qrAgain.status).toBe(304);
    expect((await get(`${auth.baseUrl}/api/account/company/unknown-company-xyz/qrcode`)).status).toBe(404);

    expect((await get(`${auth.baseUrl}/api/account/company/${co.urlIdentifier}/logo`)).status).toBe(404);
    await co.admin('PUT', '/api/account/company/customization/logo', { content: PNG.toString('base64') });
    const logoUrl = (await co.view()).body.customization.logo_url as string;
    const logo = await get(`${auth.baseUrl}${logoUrl}`);
    expect(logo.status).toBe(200);
    expect(Buffer.from(await logo.arrayBuffer())).toEqual(PNG);
    expect(logo.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const logoEtag = logo.headers.get('etag')!;
    const logoAgain = await get(`${auth.baseUrl}/api/account/company/${co.urlIdentifier}/logo`, {
      'if-none-match': logoEtag,
    });
    expect(logoAgain.status).toBe(304);
    expect(logoAgain.headers.get('cache-control')).toBe('public, no-cache');
    expect(logoAgain.headers.get('content-security-policy')).toContain("default-src 'none'");

    const otherPng = Buffer.concat([PNG, Buffer.from('trailing bytes keep it a PNG')]);
    expect(
      (await co.admin('PUT', '/api/account/company/customization/logo', { content: otherPng.toString('base64') }))
        .status,
    ).toBe(200);
    const changed = await get(`${auth.baseUrl}/api/account/company/${co.urlIdentifier}/logo`, {
      'if-none-match': logoEtag,
    });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(logoEtag);
    await changed.arrayBuffer();
    expect((await co.admin('DELETE', '/api/account/company/customization/logo')).status).toBe(200);
    expect((await get(`${auth.baseUrl}/api/account/company/${co.urlIdentifier}/logo`)).status).toBe(404);
  });
});

describe('two auth replicas on one PostgreSQL database and one RabbitMQ exchange', () => {
  let database: TestDatabase;
  const exchange = uniqueTestName('whistle.test');
  const replicas: { db: Database; bus: EventBus; auth: RunningAuth }[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    for (let i = 0; i < 2; i += 1) {
      const logger = createRecordingLogger();
      const db = await openDatabase({ databaseUrl: database.url });
      const bus = await openEventBus({ amqpUrl: testAmqpUrl(), exchange, logger });
      // One after the other: the first migrates the schema.
      replicas.push({ db, bus, auth: await startAuth({ logger, db, bus }) });
    }
  });
  afterAll(async () => {
    for (const replica of replicas) {
      await replica.auth.close();
      await replica.bus.close();
      await replica.db.close();
    }
    await database?.drop();
    await deleteRabbitTopology({ exchanges: [exchange], consumers: ['auth'] });
  });

  it('when one replica changes the company, its labels or its landing page, then the other drops its cached view', async () => {
    const [first, second] = replicas.map((replica) => replica.auth.baseUrl) as [string, string];
    const co = await companyOn(replicas[0]!.auth);
    // Both replicas hold the view.
    expect((await co.view(second)).etag).toBe((await co.view(first)).etag);

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const changes: [string, string, unknown, (body: Record<string, any>) => boolean][] = [
      [
        'PUT',
        '/api/account/company',
        { name: 'Renamed elsewhere', country: 'FR' },
        (body) => body.name === 'Renamed elsewhere',
      ],
      [
        'POST',
        '/api/account/company/category',
        { name: 'From the other replica', management_categories: [] },
        (body) => body.categories.some((c: { name: string }) => c.name === 'From the other replica'),
      ],
      [
        'POST',
        '/api/account/company/location',
        { name: 'Other replica office' },
        (body) => body.locations.some((l: { name: string }) => l.name === 'Other replica office'),
      ],
      [
        'PUT',
        '/api/account/company/customization',
        { title: 'Set on the other replica', description: null },
        (body) => body.customization.title === 'Set on the other replica',
      ],
    ];
    for (const [method, path, body, shows] of changes) {
      expect(shows((await co.view(first)).body)).toBe(false);
      expect((await co.admin(method, path, body, second)).status).toBeLessThan(300);
      // The notification travels through PostgreSQL to the first replica's listening connection.
      await waitFor(async () => shows((await co.view(first)).body), { what: `${method} ${path} seen` });
    }
  });
});
