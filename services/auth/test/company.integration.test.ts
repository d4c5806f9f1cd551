import type { EventEnvelope } from '@whistle/contracts';
import { createCompanyCredentials } from '@whistle/crypto';
import { InProcessEventBus, type Database, type Queryable } from '@whistle/service-kit';
import { createTestDependencies, testStacks, waitFor, type TestDependencies } from '@whistle/service-kit/testing';
import { startAuth, type RunningAuth } from './support';

let domainCounter = 0;
async function payload(overrides: Record<string, unknown> = {}) {
  domainCounter += 1;
  const { credential, passphrase } = await createCompanyCredentials();
  return {
    user_profile: {
      email: `Admin@Company-${domainCounter}-${Date.now()}.example`,
      password: 'a long enough password',
      full_name: ' Ada Lovelace ',
    },
    name: 'Globex',
    credential,
    passphrase,
    country: 'DE',
    ...overrides,
  };
}

const post = (baseUrl: string, body: unknown) =>
  fetch(`${baseUrl}/api/account/company`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function count(db: Queryable, table: string): Promise<number> {
  const { rows } = await db.query<{ count: number }>(`select count(*)::int as count from ${table}`);
  return rows[0].count;
}

describe.each(testStacks)('auth company onboarding on %s', (stack) => {
  let test$: TestDependencies;
  let auth: RunningAuth;
  const published: EventEnvelope[] = [];

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['auth-test-observer']);
    await test$.deps.bus.subscribe({
      consumer: 'auth-test-observer',
      events: ['#'],
      handle: async (event) => void published.push(event),
    });
    auth = await startAuth(test$.deps);
  });
  afterAll(async () => {
    await auth?.close();
    await test$?.dispose();
  });

  test('when a company is created, then the company, its admin, labels, location and both events are stored together', async () => {
    const body = await payload();
    const response = await post(auth.baseUrl, body);
    expect(response.status).toBe(201);
    const { url_identifier } = (await response.json()) as { url_identifier: string };

    const { rows } = await test$.deps.db.query<{
      id: string;
      name: string;
      email_domain: string;
      wrapped_passphrase: string;
    }>('select id, name, email_domain, wrapped_passphrase from auth.company where url_identifier = $1', [
      url_identifier,
    ]);
    expect(rows).toHaveLength(1);
    const company = rows[0];
    expect(company.email_domain).toBe(body.user_profile.email.split('@')[1].toLowerCase());
    // The company passphrase is never stored in clear.
    expect(company.wrapped_passphrase).not.toContain(body.passphrase);
    expect(company.wrapped_passphrase).toMatch(/^v1\./);

    const { rows: users } = await test$.deps.db.query<{
      email: string;
      full_name: string;
      roles: string[];
      password_hash: string;
    }>('select email, full_name, roles, password_hash from auth.user_profile where company_id = $1', [company.id]);
    expect(users).toEqual([
      expect.objectContaining({
        email: body.user_profile.email.toLowerCase(),
        full_name: 'Ada Lovelace',
        roles: ['ADMIN'],
      }),
    ]);
    expect(users[0].password_hash).toMatch(/^\$argon2id\$/);

    const events = await waitFor(
      () => {
        const mine = published.filter((event) => event.company_id === company.id);
        return mine.length === 2 ? mine : undefined;
      },
      { what: 'company events on the bus' },
    );
    expect(events.map((event) => event.name).sort()).toEqual(['company.created', 'user.created']);
    const created = events.find((event) => event.name === 'company.created')!;
    expect(created.payload).toMatchObject({ company_id: company.id, url_identifier, name: 'Globex', country: 'DE' });
    // Events carry ids, names and labels; never credentials.
    expect(JSON.stringify(events)).not.toContain(body.passphrase);
    expect(JSON.stringify(events)).not.toContain(body.user_profile.password);
  });

  test('when creating fails half-way, then no partial company is left', async () => {
    const body = await payload();
    const failingDb = failOnSql(test$.deps.db, 'insert into auth.location');
    // A second auth instance, with a bus of its own: the running one already consumes as `auth`.
    const bus = new InProcessEventBus({ logger: test$.deps.logger });
    const broken = await startAuth({ ...test$.deps, db: failingDb, bus });
    try {
      const before = await count(test$.deps.db, 'auth.company');
      const response = await post(broken.baseUrl, body);
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ message: 'Internal Server Error' });
      expect(await count(test$.deps.db, 'auth.company')).toBe(before);
      const { rows } = await test$.deps.db.query('select 1 from auth.user_profile where lower(email) = lower($1)', [
        body.user_profile.email,
      ]);
      expect(rows).toHaveLength(0);
    } finally {
      await broken.close();
      await bus.close();
    }
  });

  test('when two admins of one domain sign up at once, then exactly one company is created and the other is told it exists', async () => {
    const domain = `race-${Date.now()}.example`;
    const [first, second] = await Promise.all([
      payload({ user_profile: { email: `a@${domain}`, password: 'a long enough password', full_name: 'A' } }),
      payload({ user_profile: { email: `b@${domain}`, password: 'a long enough password', full_name: 'B' } }),
    ]);
    const answers = await Promise.all([post(auth.baseUrl, first), post(auth.baseUrl, second)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 400]);
    const refused = answers.find((answer) => answer.status === 400)!;
    expect(await refused.json()).toMatchObject({ exists: true });
    const { rows } = await test$.deps.db.query<{ count: number }>(
      'select count(*)::int as count from auth.company where email_domain = $1',
      [domain],
    );
    expect(rows[0].count).toBe(1);
  });

  test('when the credential is not a versioned key, then 400 names the field and nothing is stored', async () => {
    const before = await count(test$.deps.db, 'auth.company');
    const response = await post(
      auth.baseUrl,
      await payload({ credential: { public_key: 'PEM garbage', aes_encrypted_private_key: 'x' } }),
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as { errors: Record<string, string[]> };
    expect(Object.keys(body.errors)).toEqual(
      expect.arrayContaining(['credential.public_key', 'credential.aes_encrypted_private_key']),
    );
    expect(await count(test$.deps.db, 'auth.company')).toBe(before);
  });
});

/** The same database, except that a statement starting with `prefix` fails inside transactions. */
function failOnSql(db: Database, prefix: string): Database {
  const failing = (target: Queryable): Queryable => ({
    query: (sql, params) =>
      sql.trim().startsWith(prefix) ? Promise.reject(new Error('simulated failure')) : target.query(sql, params),
  });
  return {
    kind: db.kind,
    query: (sql, params) => db.query(sql, params),
    transaction: (work) => db.transaction((tx) => work(failing(tx))),
    listen: (channel, listener) => db.listen(channel, listener),
    close: () => db.close(),
  };
}
