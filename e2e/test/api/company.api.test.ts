import { companyPublicViewSchema } from '@whistle/contracts';
import { openDatabase, type Queryable } from '@whistle/service-kit';
import { startCluster, type ClusterPlatform } from '../../src/cluster';
import { companyPayload, confirmRegistration, postJson } from '../../src/company-fixtures';
import type { Mailbox } from '../../src/mailbox';
import { startStandalone, type StandalonePlatform } from '../../src/standalone';

/**
 * The same onboarding API cases in both ways of running Whistle: standalone (one process, PGlite,
 * in-process bus, disk, mail folder) and cluster (a process per service on PostgreSQL, RabbitMQ,
 * s3rver and SMTP, behind a gateway that routes by the routing table).
 */
interface Harness {
  baseUrl: string;
  /** The platform's outgoing mail. */
  mailbox: Mailbox;
  /** Runs `read` on the platform's database (standalone: after stopping it, PGlite allows one process). */
  inDatabase<T>(read: (db: Queryable) => Promise<T>): Promise<T>;
  stop(): Promise<void>;
}

async function standaloneHarness(): Promise<Harness> {
  const platform: StandalonePlatform = await startStandalone();
  return {
    baseUrl: platform.baseUrl,
    mailbox: platform.mailbox,
    async inDatabase(read) {
      await platform.stop();
      const db = await openDatabase({ dataDir: platform.dataDir });
      try {
        return await read(db);
      } finally {
        await db.close();
      }
    },
    stop: () => platform.dispose(),
  };
}

async function clusterHarness(): Promise<Harness> {
  const platform: ClusterPlatform = await startCluster();
  return {
    baseUrl: platform.baseUrl,
    mailbox: platform.mailbox,
    async inDatabase(read) {
      const db = await openDatabase({ databaseUrl: platform.databaseUrl });
      try {
        return await read(db);
      } finally {
        await db.close();
      }
    },
    stop: () => platform.stop(),
  };
}

describe.each([
  ['standalone', standaloneHarness],
  ['cluster', clusterHarness],
])('company onboarding API (%s)', (_mode, start) => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await start();
  });
  afterAll(async () => {
    await harness?.stop();
  });

  let created: { url_identifier: string; email: string };

  test('when a company is created, then its discloser view shows default labels, a location and its public key', async () => {
    const payload = await companyPayload({ name: '  Acme Corporation  ' });
    const response = await postJson(harness.baseUrl, '/api/account/company', payload);
    expect(response.status).toBe(201);
    const { url_identifier } = (await response.json()) as { url_identifier: string };
    expect(url_identifier).toMatch(/^acme-corporation-[a-z0-9]{6}$/);
    created = { url_identifier, email: payload.user_profile.email };
    // Nothing of it exists for disclosers until its admin confirms the e-mailed link.
    expect((await fetch(`${harness.baseUrl}/api/account/company/${url_identifier}`)).status).toBe(404);
    expect(await confirmRegistration(harness.baseUrl, harness.mailbox, payload.user_profile.email)).toBe(
      url_identifier,
    );

    const view = companyPublicViewSchema.parse(
      await (await fetch(`${harness.baseUrl}/api/account/company/${url_identifier}`)).json(),
    );
    expect(view.name).toBe('Acme Corporation');
    expect(view.public_key).toBe(payload.credential.public_key);
    const topLevel = view.categories.filter((category) => category.parent_uuid === null);
    const subCategories = view.categories.filter((category) => category.parent_uuid !== null);
    expect(topLevel.length).toBeGreaterThanOrEqual(4);
    expect(subCategories.every((sub) => topLevel.some((top) => top.uuid === sub.parent_uuid))).toBe(true);
    expect(view.locations.length).toBeGreaterThanOrEqual(1);
    // Staff data never reaches a discloser.
    expect(JSON.stringify(view)).not.toContain(payload.user_profile.email);
    expect(JSON.stringify(view)).not.toContain(payload.credential.aes_encrypted_private_key);
  });

  test('when the QR code is asked for, then a PNG of the disclosure link comes back', async () => {
    const response = await fetch(`${harness.baseUrl}/api/account/company/${created.url_identifier}/qrcode`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await response.arrayBuffer());
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  });

  test('when an API path no service has is asked, then the API answers it as JSON, never the page; OPTIONS is refused', async () => {
    for (const path of ['/api/anything-unknown', '/api/account/nothing/here', '/api']) {
      const response = await fetch(`${harness.baseUrl}${path}`, { headers: { accept: 'text/html,*/*' } });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(await response.json()).toEqual({ message: 'Not Found' });
    }
    const preflight = await fetch(`${harness.baseUrl}/api/account/token`, {
      method: 'OPTIONS',
      headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(405);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(await preflight.json()).toEqual({ message: 'Method Not Allowed' });
  });

  test('when reached over plain HTTP, then no answer claims HSTS (browsers ignore it there)', async () => {
    for (const path of ['/company/login', '/api/account/company/nobody-here', '/readyz']) {
      expect((await fetch(`${harness.baseUrl}${path}`)).headers.get('strict-transport-security')).toBeNull();
    }
  });

  test('when a company is created, then its first admin receives the welcome mail with both links', async () => {
    const { text } = await harness.mailbox(created.email, /is ready$/);
    expect(text).toContain(`${harness.baseUrl}/disclose/${created.url_identifier}`);
    expect(text).toContain(`${harness.baseUrl}/company/login`);
  });

  test('when a second company signs up from the same e-mail domain, then it is told the account exists and nothing is stored', async () => {
    const domain = created.email.split('@')[1];
    const response = await postJson(
      harness.baseUrl,
      '/api/account/company',
      await companyPayload({}, { email: `grace@${domain}`, password: 'another long password' }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ exists: true });
  });

  test('when the admin uses a public webmail address, then the invalid flag comes back', async () => {
    const response = await postJson(
      harness.baseUrl,
      '/api/account/company',
      await companyPayload({}, { email: 'someone@gmail.com' }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ invalid: true });
  });

  test('when the body is malformed JSON, then 400 with a JSON message', async () => {
    const response = await postJson(harness.baseUrl, '/api/account/company', '{"name": ');
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(await response.json()).toEqual({ message: 'Malformed JSON body' });
  });

  test('when fields are missing or of the wrong type, then 400 names each field', async () => {
    const response = await postJson(harness.baseUrl, '/api/account/company', {
      user_profile: { email: 'not-an-email', password: 42 },
      name: '   ',
      country: 'XX',
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { errors: Record<string, string[]> };
    expect(Object.keys(body.errors)).toEqual(
      expect.arrayContaining([
        'user_profile.email',
        'user_profile.password',
        'user_profile.full_name',
        'name',
        'country',
        'credential',
        'passphrase',
      ]),
    );
    expect(body.errors['user_profile.full_name']).toEqual(['This field is required']);
    expect(body.errors['user_profile.email']).toEqual(['Invalid email address']);
  });

  test('when the body is larger than the limit, then 413 and nothing is stored', async () => {
    const payload = await companyPayload();
    payload.user_profile.full_name = 'x'.repeat(2_000_000);
    const response = await postJson(harness.baseUrl, '/api/account/company', payload);
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
  });

  test('when an unknown or malformed url_identifier is asked for, then 404 JSON', async () => {
    for (const id of ['nobody-zzzzzz', 'NOT_VALID!', `${created.url_identifier}x`]) {
      const response = await fetch(`${harness.baseUrl}/api/account/company/${encodeURIComponent(id)}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ message: 'Company not found' });
    }
    expect((await fetch(`${harness.baseUrl}/api/account/company/nobody-zzzzzz/qrcode`)).status).toBe(404);
  });

  test('when the platform runs, then the audit log recorded the company, its admin, their keys and grant, and only one company per domain exists', async () => {
    // Onboarding made the admin's keys in the browser and granted them the company key: the trail says so too.
    const expected = [
      { name: 'company.created', table_identifier: 'company' },
      { name: 'company.key_granted', table_identifier: 'company' },
      { name: 'user.created', table_identifier: 'user_profile' },
      { name: 'user.keys_created', table_identifier: 'user_profile' },
      { name: 'user.unlock_method_added', table_identifier: 'user_profile' },
    ];
    const rows = await harness.inDatabase(async (db) => {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const { rows: events } = await db.query<{ name: string; table_identifier: string }>(
          `select name, table_identifier from audit.audit_event
            where company_id = (select id from auth.company where url_identifier = $1) order by name`,
          [created.url_identifier],
        );
        if (events.length >= expected.length || Date.now() > deadline) {
          const { rows: companies } = await db.query<{ count: number }>(
            'select count(*)::int as count from auth.company where email_domain = $1',
            [created.email.split('@')[1]],
          );
          return { events, companies: companies[0].count };
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    });
    expect(rows.events).toEqual(expected);
    expect(rows.companies).toBe(1);
  });
});
