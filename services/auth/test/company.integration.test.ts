/* eslint-disable max-lines -- one service per stack serves every case here; split, each file would start and migrate it again. */
import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@whistle/contracts';
import { createCompanyCredentials, openCompanyKeyWithRecovery, type RecoveryKey } from '@whistle/crypto';
import { onboardingPayload } from '@whistle/test-support';
import { InProcessEventBus, type Database, type Queryable } from '@whistle/service-kit';
import { createTestDependencies, testStacks, waitFor, type TestDependencies } from '@whistle/service-kit/testing';
import { removeExpired } from '../src/domain/account/remove-expired.use-case';
import { confirmationTokenIn, staffClient } from './staff-client';
import { startAuth, type RunningAuth } from './support';

let domainCounter = 0;
/** What the admin typed, and the recovery kit they printed, by payload: the payload carries neither. */
const typed = new WeakMap<object, { password: string; recovery: RecoveryKey; companyPublicKey: string }>();
const passwordOf = (body: object) => typed.get(body)!.password;
/**
 * The onboarding page's payload: the password derived, the admin's keys, the company key granted to them and sealed
 * for the recovery kit. `user_profile` overrides choose the address, password and name typed.
 */
async function payload(
  overrides: { user_profile?: { email?: string; password?: string; full_name?: string } } & Record<
    string,
    unknown
  > = {},
) {
  domainCounter += 1;
  const { user_profile: profile = {}, ...rest } = overrides;
  const password = profile.password ?? 'a long enough password';
  const made = await onboardingPayload({
    email: profile.email ?? `Admin@Company-${domainCounter}-${Date.now()}.example`,
    password,
    full_name: profile.full_name ?? ' Ada Lovelace ',
    name: 'Globex',
    country: 'DE',
  });
  const body = { ...made.payload, ...rest };
  typed.set(body, { password, recovery: made.recovery, companyPublicKey: made.companyPublicKey });
  return body;
}

/** Each registration from its own client address, unless told: the per-network limit is not what these tests test. */
const post = (
  baseUrl: string,
  body: unknown,
  client = `10.8.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
) =>
  fetch(`${baseUrl}/api/account/company`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
    body: JSON.stringify(body),
  });

const confirm = (baseUrl: string, body: unknown) =>
  staffClient(baseUrl).call('POST', '/api/account/company/confirmation', { body });

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

  /** A registration answered 201, and the token of the link mailed to its admin. */
  async function register(body: Awaited<ReturnType<typeof payload>>) {
    const response = await post(auth.baseUrl, body);
    expect(response.status).toBe(201);
    const { url_identifier } = (await response.json()) as { url_identifier: string };
    const mail = await auth.mailTo(body.user_profile.email.toLowerCase(), /^Confirm your company/);
    return { urlIdentifier: url_identifier, token: confirmationTokenIn(mail), mail };
  }

  test('when a company registers, then nothing of it exists until its admin confirms the e-mailed link', async () => {
    const body = await payload();
    const { urlIdentifier, token, mail } = await register(body);
    // The link's secret rides in the fragment, and the mail carries no text of the registrant but the company name.
    expect(mail.text).toMatch(/https:\/\/whistle\.example\/company\/onboarding\/confirm#token=/);
    expect(mail.text).not.toContain('Ada Lovelace');

    expect(await count(test$.deps.db, `auth.company where url_identifier = '${urlIdentifier}'`)).toBe(0);
    expect((await fetch(`${auth.baseUrl}/api/account/company/${urlIdentifier}`)).status).toBe(404);
    expect((await fetch(`${auth.baseUrl}/api/account/company/${urlIdentifier}/qrcode`)).status).toBe(404);
    const signIn = await staffClient(auth.baseUrl).login(body.user_profile.email, passwordOf(body));
    expect(signIn.status).toBe(401);
    expect(published.filter((event) => event.payload.url_identifier === urlIdentifier)).toEqual([]);

    const confirmed = await confirm(auth.baseUrl, { token });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ url_identifier: urlIdentifier });
    expect((await fetch(`${auth.baseUrl}/api/account/company/${urlIdentifier}`)).status).toBe(200);
    const signedIn = await staffClient(auth.baseUrl).login(body.user_profile.email, passwordOf(body));
    expect(signedIn.status).toBe(200);
    // The link works once.
    expect((await confirm(auth.baseUrl, { token })).status).toBe(401);
  });

  test('when a company is confirmed, then the company, its admin with their keys, the company key held by them and the recovery kit, labels, location and events are stored together', async () => {
    const body = await payload();
    const { urlIdentifier: url_identifier, token } = await register(body);
    expect((await confirm(auth.baseUrl, { token })).status).toBe(200);

    const { rows } = await test$.deps.db.query<{
      id: string;
      email_domain: string;
      public_key: string;
      wrapped_passphrase: string | null;
      aes_encrypted_private_key: string | null;
    }>(
      'select id, email_domain, public_key, wrapped_passphrase, aes_encrypted_private_key from auth.company where url_identifier = $1',
      [url_identifier],
    );
    expect(rows).toHaveLength(1);
    const company = rows[0];
    expect(company.email_domain).toBe(body.user_profile.email.split('@')[1].toLowerCase());
    // Nothing the server could open the company key with: no KEK-wrapped passphrase, no server-side seal.
    expect(company).toMatchObject({
      public_key: typed.get(body)!.companyPublicKey,
      wrapped_passphrase: null,
      aes_encrypted_private_key: null,
    });
    const { rows: keys } = await test$.deps.db.query<{ version: number; recovery_sealed_private_key: string }>(
      'select version, recovery_sealed_private_key from auth.company_key where company_id = $1',
      [company.id],
    );
    expect(keys).toEqual([{ version: 1, recovery_sealed_private_key: body.credential.aes_encrypted_private_key }]);
    // The kit the admin printed opens it; the server holds no kit.
    await expect(
      openCompanyKeyWithRecovery(typed.get(body)!.recovery, keys[0].recovery_sealed_private_key, company.public_key),
    ).resolves.toBeDefined();

    const { rows: users } = await test$.deps.db.query<{
      id: string;
      email: string;
      full_name: string;
      roles: string[];
      password_hash: string;
      kdf_salt: string;
    }>('select id, email, full_name, roles, password_hash, kdf_salt from auth.user_profile where company_id = $1', [
      company.id,
    ]);
    expect(users).toEqual([
      expect.objectContaining({
        email: body.user_profile.email.toLowerCase(),
        full_name: 'Ada Lovelace',
        roles: ['ADMIN'],
        kdf_salt: body.user_profile.kdf_salt,
      }),
    ]);
    expect(users[0].password_hash).toMatch(/^\$argon2id\$/);
    expect(await count(test$.deps.db, `auth.company_registration where id = '${company.id}'`)).toBe(0);
    const { rows: grants } = await test$.deps.db.query<{ user_id: string; wrapped_private_key: string }>(
      'select user_id, wrapped_private_key from auth.company_key_grant where company_id = $1',
      [company.id],
    );
    expect(grants).toEqual([{ user_id: users[0].id, wrapped_private_key: body.passphrase }]);

    const events = await waitFor(
      () => {
        const mine = published.filter((event) => event.company_id === company.id);
        return mine.length === 5 ? mine : undefined;
      },
      { what: 'company events on the bus' },
    );
    expect(events.map((event) => event.name).sort()).toEqual([
      'company.created',
      'company.key_granted',
      'user.created',
      'user.keys_created',
      'user.unlock_method_added',
    ]);
    const created = events.find((event) => event.name === 'company.created')!;
    expect(created.payload).toMatchObject({ company_id: company.id, url_identifier, name: 'Globex', country: 'DE' });
    // Events carry ids, names, public keys and fingerprints; never a wrapping or a secret.
    const text = JSON.stringify(events);
    for (const secret of [
      body.passphrase,
      body.user_profile.password,
      body.user_profile.keys.unlock.sealed_private_keys,
      passwordOf(body),
    ])
      expect(text).not.toContain(secret);
  });

  test('when a page from before sends a password and a passphrase the server could keep, then 400 says to reload, and nothing is registered', async () => {
    const before = await count(test$.deps.db, 'auth.company_registration');
    const { credential, passphrase } = await createCompanyCredentials();
    const response = await post(auth.baseUrl, {
      user_profile: { email: `old@page-${Date.now()}.example`, password: 'a long enough password', full_name: 'Ada' },
      name: 'Globex',
      credential,
      passphrase,
      country: 'DE',
    });
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { errors: Record<string, string[]> };
    expect(answer.errors['user_profile.password']).toEqual(['This page is out of date: reload it and try again']);
    expect(answer.errors.passphrase).toEqual(['This page is out of date: reload it and try again']);
    expect(await count(test$.deps.db, 'auth.company_registration')).toBe(before);
  });

  test('when someone registers a domain with an address they do not own, then the real owner still registers it and the squatter’s link dies', async () => {
    const domain = `bigcorp-${randomUUID().slice(0, 8)}.example`;
    const ceo = `ceo@${domain}`;
    const squatter = await register(
      await payload({ user_profile: { email: ceo, password: 'the squatter password', full_name: 'Mallory' } }),
    );
    const other = await register(
      await payload({ user_profile: { email: `it@${domain}`, password: 'the squatter password', full_name: 'M' } }),
    );
    // The real CEO registers with their own address, and confirms from their own mailbox.
    const realBody = await payload({ user_profile: { email: ceo, password: 'the real ceo password', full_name: 'C' } });
    const real = await post(auth.baseUrl, realBody);
    expect(real.status).toBe(201);
    const { url_identifier } = (await real.json()) as { url_identifier: string };
    const realMail = await waitFor(
      async () => auth.mails.filter((mail) => mail.to === ceo && /^Confirm your company/.test(mail.subject))[1],
      { what: 'the real owner’s confirmation mail' },
    );
    expect((await confirm(auth.baseUrl, { token: confirmationTokenIn(realMail) })).body).toEqual({ url_identifier });
    const signedIn = await staffClient(auth.baseUrl).login(ceo, 'the real ceo password');
    expect(signedIn.status).toBe(200);

    // The domain now belongs to the confirmed company: the other registrations of it are gone.
    expect((await confirm(auth.baseUrl, { token: squatter.token })).status).toBe(401);
    expect((await confirm(auth.baseUrl, { token: other.token })).status).toBe(401);
    expect(await count(test$.deps.db, `auth.company_registration where email_domain = '${domain}'`)).toBe(0);
    // And a new registration of the domain is told it exists, as the spec says.
    const again = await post(
      auth.baseUrl,
      await payload({ user_profile: { email: `x@${domain}`, password: 'a long enough password', full_name: 'X' } }),
    );
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ exists: true });
  });

  test('when a registration is not confirmed within a day, then its link is refused and housekeeping deletes it', async () => {
    const body = await payload();
    const { urlIdentifier, token } = await register(body);
    await test$.deps.db.query(
      "update auth.company_registration set expires_at = now() - interval '1 second' where url_identifier = $1",
      [urlIdentifier],
    );
    expect((await confirm(auth.baseUrl, { token })).status).toBe(401);
    await removeExpired(test$.deps.db);
    expect(await count(test$.deps.db, `auth.company_registration where url_identifier = '${urlIdentifier}'`)).toBe(0);
    // The same address registers again.
    const again = await post(auth.baseUrl, body);
    expect(again.status).toBe(201);
  });

  test('when a confirmation carries no token or a made-up one, then it is refused and nothing is created', async () => {
    const before = await count(test$.deps.db, 'auth.company');
    expect((await confirm(auth.baseUrl, {})).status).toBe(400);
    expect((await confirm(auth.baseUrl, { token: 'made-up' })).status).toBe(401);
    expect((await confirm(auth.baseUrl, { token: 'x'.repeat(500) })).status).toBe(400);
    expect(await count(test$.deps.db, 'auth.company')).toBe(before);
  });

  test('when one address registers again and again, then it is mailed a few times at most (429 after)', async () => {
    const email = `flooded@target-${randomUUID().slice(0, 8)}.example`;
    const statuses = [];
    for (let i = 0; i < 4; i += 1)
      statuses.push(
        (
          await post(
            auth.baseUrl,
            await payload({ user_profile: { email, password: 'a long enough password', full_name: 'F' } }),
          )
        ).status,
      );
    expect(statuses).toEqual([201, 201, 201, 429]);
  });

  test('when confirming fails half-way, then no partial company is left and the link still works', async () => {
    const body = await payload();
    const failingDb = failOnSql(test$.deps.db, 'insert into auth.location');
    // A second auth instance, with a bus of its own: the running one already consumes as `auth`.
    const bus = new InProcessEventBus({ logger: test$.deps.logger });
    const broken = await startAuth({ ...test$.deps, db: failingDb, bus });
    try {
      const { token, urlIdentifier } = await register(body);
      const before = await count(test$.deps.db, 'auth.company');
      const response = await confirm(broken.baseUrl, { token });
      expect(response.status).toBe(500);
      expect(response.body).toEqual({ message: 'Internal Server Error' });
      expect(await count(test$.deps.db, 'auth.company')).toBe(before);
      const { rows } = await test$.deps.db.query('select 1 from auth.user_profile where lower(email) = lower($1)', [
        body.user_profile.email,
      ]);
      expect(rows).toHaveLength(0);
      expect((await confirm(auth.baseUrl, { token })).body).toEqual({ url_identifier: urlIdentifier });
    } finally {
      await broken.close();
      await bus.close();
    }
  });

  test('when two admins of one domain confirm at once, then exactly one company is created and the other is told it exists', async () => {
    const domain = `race-${Date.now()}.example`;
    const [first, second] = await Promise.all([
      payload({ user_profile: { email: `a@${domain}`, password: 'a long enough password', full_name: 'A' } }),
      payload({ user_profile: { email: `b@${domain}`, password: 'a long enough password', full_name: 'B' } }),
    ]);
    const links = [await register(first), await register(second)];
    const answers = await Promise.all(links.map(({ token }) => confirm(auth.baseUrl, { token })));
    const statuses = answers.map((answer) => answer.status).sort();
    // The loser either lost the race on the domain (400 exists) or found its registration already dropped (401).
    expect(statuses[0]).toBe(200);
    expect([400, 401]).toContain(statuses[1]);
    const refused = answers.find((answer) => answer.status !== 200)!;
    if (refused.status === 400) expect(refused.body).toMatchObject({ exists: true });
    const { rows } = await test$.deps.db.query<{ count: number }>(
      'select count(*)::int as count from auth.company where email_domain = $1',
      [domain],
    );
    expect(rows[0].count).toBe(1);
  });

  test('when the credential is not a versioned key, then 400 names the field and nothing is stored', async () => {
    const before = await count(test$.deps.db, 'auth.company_registration');
    const response = await post(
      auth.baseUrl,
      await payload({ credential: { public_key: 'PEM garbage', aes_encrypted_private_key: 'x' } }),
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as { errors: Record<string, string[]> };
    expect(Object.keys(body.errors)).toEqual(
      expect.arrayContaining(['credential.public_key', 'credential.aes_encrypted_private_key']),
    );
    expect(await count(test$.deps.db, 'auth.company_registration')).toBe(before);
  });

  describe('when the operator limits onboarding', () => {
    /** Another auth instance with `env`, on a bus of its own (the running one consumes as `auth`). */
    async function withOnboarding(env: Record<string, string>, work: (other: RunningAuth) => Promise<void>) {
      const bus = new InProcessEventBus({ logger: test$.deps.logger });
      const other = await startAuth({ ...test$.deps, bus }, env);
      try {
        await work(other);
      } finally {
        await other.close();
        await bus.close();
      }
    }

    test('to listed domains, then only their addresses register (others get the spec’s not-approved answer)', async () => {
      const listed = `listed-${randomUUID().slice(0, 8)}.example`;
      await withOnboarding(
        { ONBOARDING_MODE: 'allowlist', ONBOARDING_ALLOWED_EMAIL_DOMAINS: ` ${listed.toUpperCase()} , other.example` },
        async (other) => {
          const refused = await post(other.baseUrl, await payload());
          expect(refused.status).toBe(400);
          expect(await refused.json()).toMatchObject({
            invalid: true,
            errors: { 'user_profile.email': ['Your email address is not approved for a Whistleblowing account'] },
          });
          const body = await payload({
            user_profile: { email: `ada@${listed}`, password: 'a long enough password', full_name: 'A' },
          });
          expect((await post(other.baseUrl, body)).status).toBe(201);
          const token = confirmationTokenIn(await other.mailTo(`ada@${listed}`, /^Confirm your company/));
          expect((await confirm(other.baseUrl, { token })).status).toBe(200);
        },
      );
    });

    test('to nobody, then registrations and pending confirmations are refused with a clear 403', async () => {
      const pending = await register(await payload());
      await withOnboarding({ ONBOARDING_MODE: 'closed' }, async (other) => {
        const refused = await post(other.baseUrl, await payload());
        expect(refused.status).toBe(403);
        expect(await refused.json()).toEqual({ message: 'Company registration is closed on this platform' });
        expect((await confirm(other.baseUrl, { token: pending.token })).status).toBe(403);
      });
      expect(await count(test$.deps.db, "auth.company where url_identifier = '" + pending.urlIdentifier + "'")).toBe(0);
    });

    test('with a mode it does not know, then the service refuses to start and says which values it takes', async () => {
      await expect(startAuth(test$.deps, { ONBOARDING_MODE: 'invite-only' })).rejects.toThrow(
        /open, allowlist or closed/,
      );
    });
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
