import { randomBytes, randomUUID } from 'node:crypto';
import type { CompanyKeysResponse, EventEnvelope } from '@whistle/contracts';
import {
  companyFingerprint,
  createCompanyKeyPair,
  grantCompanyKey,
  openCompanyKeyGrant,
  openCompanyKeyWithRecovery,
  personFingerprint,
  type PersonKeys,
} from '@whistle/crypto';
import { SmtpMailer } from '@whistle/mailer';
import { createTestDependencies, testStacks, waitFor, type TestDependencies } from '@whistle/service-kit/testing';
import {
  companyKeyRotationBody,
  grantReportAccess,
  recipientOf,
  startSmtpCatcher,
  unlockOwnKeys,
  type SmtpCatcher,
} from '@whistle/test-support';
import { adminPassword, onboardCompany, passwordLinkTokenIn, staffClient } from './staff-client';
import { startAuth, type RunningAuth } from './support';

const memberPassword = 'member password 5678';

describe.each(testStacks)('company key rotation, in the auth service, on %s', (stack) => {
  let test$: TestDependencies;
  let smtp: SmtpCatcher;
  let mailer: SmtpMailer;
  let auth: RunningAuth;
  const published: EventEnvelope[] = [];

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['auth-rotation-observer']);
    await test$.deps.bus.subscribe({
      consumer: 'auth-rotation-observer',
      events: ['#'],
      handle: async (event) => void published.push(event),
    });
    smtp = await startSmtpCatcher();
    mailer = new SmtpMailer(smtp.url, 'Whistle <no-reply@whistle.test>');
    auth = await startAuth({ ...test$.deps, mailer }, { KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64') });
  });
  afterAll(async () => {
    await auth?.close();
    await mailer?.close();
    await smtp?.close();
    await test$?.dispose();
  });

  const eventsOf = (name: string, companyId: string) =>
    published.filter((event) => event.name === name && event.company_id === companyId);

  async function company() {
    const onboarded = await onboardCompany(auth);
    const client = staffClient(auth.baseUrl);
    const adminToken = (await client.login(onboarded.email, adminPassword)).body.token as string;
    const own = await client.call('GET', '/api/account/company/', { bearer: adminToken });
    return { ...onboarded, client, adminToken, companyId: own.body.uuid as string };
  }
  type Company = Awaited<ReturnType<typeof company>>;

  /** A second person with keys, invited with `roles` and approved by the admin (so they hold the company key). */
  async function holder(co: Company, roles: string[]) {
    const email = `${roles[0]!.toLowerCase()}-${randomUUID().slice(0, 6)}@${co.domain}`;
    const invited = await co.client.call('POST', '/api/account/company/user_profile/', {
      bearer: co.adminToken,
      body: { email, full_name: 'Second Holder', roles },
    });
    expect(invited.status).toBe(201);
    const mail = await smtp.waitFor((m) => recipientOf(m) === email, 'invitation');
    expect((await co.client.acceptLink(passwordLinkTokenIn(mail.text!), memberPassword)).status).toBe(204);
    const token = (await co.client.login(email, memberPassword)).body.token as string;
    const person = await unlockOwnKeys(co.client.call, token, memberPassword);
    await grantReportAccess(co.client.call, { token: co.adminToken, password: adminPassword }, invited.body.uuid);
    return { userId: invited.body.uuid as string, token, person };
  }

  const keysOf = async (co: Company, token = co.adminToken) =>
    (await co.client.call('GET', '/api/account/company/keys', { bearer: token })).body as CompanyKeysResponse;
  const rotate = (co: Company, body: unknown, token = co.adminToken) =>
    co.client.call('POST', '/api/account/company/keys/rotation', { bearer: token, body });
  const rewrapped = (co: Company, versions: { key_version: number; previous_key_version: number }) =>
    test$.deps.bus.publish({
      id: randomUUID(),
      name: 'incident.company_key_rewrapped',
      version: 1,
      company_id: co.companyId,
      occurred_at: new Date().toISOString(),
      actor: { type: 'STAFF', user_id: randomUUID() },
      payload: versions,
    });

  test('when an admin rotates the company key, then every holder gets the new key, the old one stays theirs until completion, new reports get the new public key, and a second rotation is refused', async () => {
    const co = await company();
    const handler = await holder(co, ['HANDLER']);
    const before = await keysOf(co);
    const { body, recovery, publicKey } = await companyKeyRotationBody(co.client.call, co.adminToken);
    expect(body.grants.map((grant) => grant.user_id)).toContain(handler.userId);
    expect(body.grants).toHaveLength(2);

    const started = await rotate(co, body);
    expect(started.status).toBe(201);
    expect(started.body).toEqual({ key_version: 2 });

    for (const [token, person] of [
      [co.adminToken, co.admin],
      [handler.token, handler.person],
    ] as [string, PersonKeys][]) {
      const keys = await keysOf(co, token);
      expect(keys).toMatchObject({ key_version: 2, public_key: publicKey });
      expect(keys.rotation).toMatchObject({
        previous_key_version: 1,
        previous_public_key: before.public_key,
        started_by: expect.any(String),
      });
      // Both keys open, each checked against its public key: the reader opens cases under either.
      await openCompanyKeyGrant(person, keys.grant!, keys.public_key);
      await openCompanyKeyGrant(person, keys.rotation!.previous_grant!, before.public_key);
    }
    // The new recovery kit opens the new key; the kit's copy of the old one is no longer handed out.
    const adminKeys = await keysOf(co);
    await openCompanyKeyWithRecovery(recovery, adminKeys.recovery!.aes_encrypted_private_key, publicKey);

    const view = await waitFor(
      async () => {
        const answer = (await co.client.call('GET', `/api/account/company/${co.urlIdentifier}`)).body;
        return answer.public_key === publicKey ? answer : undefined;
      },
      { what: 'the public view serving the new key' },
    );
    expect(view.key_version).toBe(2);

    const again = await companyKeyRotationBody(co.client.call, co.adminToken);
    const refused = await rotate(co, { ...again.body, key_version: 2 });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('A rotation of the company key is already under way: resume it');

    const start = await waitFor(async () => eventsOf('company.key_rotation_started', co.companyId)[0], {
      what: 'the rotation announced',
    });
    expect(start.payload).toEqual({
      key_version: 2,
      previous_key_version: 1,
      public_key: publicKey,
      fingerprint: await companyFingerprint(publicKey),
    });
    expect(start.actor).toEqual({ type: 'STAFF', user_id: expect.any(String) });
    await waitFor(
      async () =>
        eventsOf('company.key_granted', co.companyId).filter((event) => event.payload.reason === 'rotation').length ===
        2,
      { what: 'the rotation grants audited' },
    );
  });

  test('when the incident service says every case is re-wrapped, then the old key goes with its grants and kit copy, the trail says so, and a repeat changes nothing', async () => {
    const co = await company();
    const handler = await holder(co, ['REVIEWER']);
    const { body } = await companyKeyRotationBody(co.client.call, co.adminToken);
    expect((await rotate(co, body)).status).toBe(201);

    // Another version than the one under way changes nothing.
    await rewrapped(co, { key_version: 3, previous_key_version: 2 });
    await rewrapped(co, { key_version: 2, previous_key_version: 1 });
    await waitFor(async () => ((await keysOf(co)).rotation === null ? true : undefined), {
      what: 'the rotation completed',
    });
    const rows = await test$.deps.db.query<{ version: number; grants: number }>(
      `select k.version, (select count(*)::int from auth.company_key_grant g
                           where g.company_id = k.company_id and g.key_version = k.version) as grants
         from auth.company_key k where k.company_id = $1 order by k.version`,
      [co.companyId],
    );
    expect(rows.rows).toEqual([{ version: 2, grants: 2 }]);
    const old = await test$.deps.db.query(
      'select 1 from auth.company_key_grant where company_id = $1 and key_version = 1',
      [co.companyId],
    );
    expect(old.rows).toHaveLength(0);
    expect((await keysOf(co, handler.token)).grant).not.toBeNull();

    await waitFor(async () => eventsOf('company.key_rotation_completed', co.companyId)[0], {
      what: 'the completion audited',
    });
    const revoked = eventsOf('company.key_revoked', co.companyId);
    expect(revoked.map((event) => event.payload.user_id).sort()).toEqual(
      body.grants.map((grant) => grant.user_id).sort(),
    );
    expect(revoked).toHaveLength(2);
    for (const event of revoked) expect(event.payload).toMatchObject({ key_version: 1, reason: 'rotation_completed' });

    await rewrapped(co, { key_version: 2, previous_key_version: 1 });
    const next = await companyKeyRotationBody(co.client.call, co.adminToken);
    const third = await rotate(co, next.body);
    expect(third.status).toBe(201);
    expect(third.body).toEqual({ key_version: 3 });
    expect(eventsOf('company.key_rotation_completed', co.companyId)).toHaveLength(1);
  });

  test('when the grants leave out a holder, name someone who does not hold the key, or show a fingerprint that changed, then nothing changes', async () => {
    const co = await company();
    const handler = await holder(co, ['HANDLER']);
    const { body } = await companyKeyRotationBody(co.client.call, co.adminToken);
    const own = body.grants.find((grant) => grant.user_id !== handler.userId)!;
    const theirs = body.grants.find((grant) => grant.user_id === handler.userId)!;

    const missing = await rotate(co, { ...body, grants: [own] });
    expect(missing.status).toBe(409);
    expect(missing.body.message).toBe('Someone was given the company key since the page loaded: reload the page');

    const notMe = await rotate(co, { ...body, grants: [theirs] });
    expect(notMe.status).toBe(400);
    expect(notMe.body.errors).toEqual({ grants: ['The new key must be granted to you too'] });

    const stranger = { ...theirs, user_id: randomUUID() };
    const foreign = await rotate(co, { ...body, grants: [own, theirs, stranger] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors).toEqual({ grants: ['Only people who hold the company key get the new one'] });

    const other = await createCompanyKeyPair();
    const changed = await rotate(co, {
      ...body,
      grants: [own, { ...theirs, fingerprint: await personFingerprint(co.admin.publicKeys) }],
    });
    expect(changed.status).toBe(409);
    expect(changed.body.message).toBe("A person's key changed since the page showed it: reload and compare again");

    const stale = await rotate(co, { ...body, key_version: 7 });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe('The company key changed: reload the page');

    // A holder who is not an admin may not rotate; an admin who does not hold the key may not either.
    expect((await rotate(co, body, handler.token)).status).toBe(403);
    const keys = await keysOf(co);
    expect(keys).toMatchObject({ key_version: 1, rotation: null });
    expect(keys.public_key).not.toBe(other.public_key);
    const rows = await test$.deps.db.query('select 1 from auth.company_key where company_id = $1', [co.companyId]);
    expect(rows.rows).toHaveLength(1);
  });

  test('when an admin who does not hold the company key tries to rotate it, then 403 and nothing changes', async () => {
    const co = await company();
    const email = `admin2-${randomUUID().slice(0, 6)}@${co.domain}`;
    const invited = await co.client.call('POST', '/api/account/company/user_profile/', {
      bearer: co.adminToken,
      body: { email, full_name: 'Second Admin', roles: ['ADMIN'] },
    });
    const mail = await smtp.waitFor((m) => recipientOf(m) === email, 'invitation');
    expect((await co.client.acceptLink(passwordLinkTokenIn(mail.text!), memberPassword)).status).toBe(204);
    const token = (await co.client.login(email, memberPassword)).body.token as string;
    const { body } = await companyKeyRotationBody(co.client.call, co.adminToken);
    const planted = await grantCompanyKey(
      (await createCompanyKeyPair()).secret,
      body.public_key,
      co.admin.publicKeys.public_key,
    );
    const answer = await rotate(co, { ...body, grants: [{ ...body.grants[0]!, grant: planted }] }, token);
    expect(answer.status).toBe(403);
    expect(invited.status).toBe(201);
    expect((await keysOf(co)).key_version).toBe(1);
  });
});
