import type { EventEnvelope } from '@whistle/contracts';
import {
  createCompanyKeyPair,
  createIncidentCredentials,
  DecryptionError,
  importCompanyPrivateKey,
  openIncidentAsCompany,
  unwrapWithPrivateKey,
} from '@whistle/crypto';
import { createTestDependencies, testStacks, waitFor, type TestDependencies } from '@whistle/service-kit/testing';
import { rewrapCompanyCases, type StaffCall } from '@whistle/test-support';
import {
  announce,
  announceStaff,
  call,
  fileReport,
  postJson,
  prepareProducer,
  reportFor,
  seedCompany,
  startIncident,
  type RunningIncident,
  type SeededCompany,
  type StaffMember,
} from './support';

describe.each(testStacks)('company key rotation, in the incident service, on %s', (stack) => {
  let test$: TestDependencies;
  let incident: RunningIncident;
  const published: EventEnvelope[] = [];

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['incident', 'rotation-test-observer']);
    await test$.deps.bus.subscribe({
      consumer: 'rotation-test-observer',
      events: ['incident.company_key_rewrapped'],
      handle: async (event) => void published.push(event),
    });
    await prepareProducer(test$.deps);
    incident = await startIncident(test$.deps);
  });
  afterAll(async () => {
    await incident?.close();
    await test$?.dispose();
  });

  const as = async (member: StaffMember, method: string, path: string, body?: unknown) =>
    call(incident.baseUrl, method, path, { token: await member.token(), body });
  const staffCall =
    (): StaffCall =>
    (method, path, options = {}) =>
      call(incident.baseUrl, method, path, { token: options.bearer, body: options.body });

  /** A company with `count` reports wrapped to its first key, its admin, and a rotation to a second key announced. */
  async function rotatingCompany(count: number) {
    const company = await seedCompany(test$.deps);
    const admin = await announceStaff(test$.deps, company, 'Ada Admin', ['ADMIN']);
    const ids: string[] = [];
    for (let index = 0; index < count; index += 1)
      ids.push((await fileReport(incident.baseUrl, (await reportFor(company)).body)).uuid);
    const next = await createCompanyKeyPair();
    const keys = {
      keyVersion: 2,
      publicKey: next.public_key,
      current: await importCompanyPrivateKey(next.secret),
      previous: await company.privateKey(),
    };
    await announce(test$.deps, {
      name: 'company.key_rotation_started',
      company_id: company.companyId,
      payload: { key_version: 2, previous_key_version: 1, public_key: next.public_key, fingerprint: 'AAAA' },
    });
    await waitFor(
      async () =>
        (
          await test$.deps.db.query('select 1 from incident.company where id = $1 and key_version = 2', [
            company.companyId,
          ])
        ).rows.length > 0,
      { what: 'the rotation in the read model' },
    );
    return { company, admin, ids, keys };
  }

  const storedWrappings = async (company: SeededCompany) =>
    (
      await test$.deps.db.query<{ id: string; company_encrypted_passphrase: string; company_key_version: number }>(
        'select id, company_encrypted_passphrase, company_key_version from incident.incident where company_id = $1',
        [company.companyId],
      )
    ).rows;

  const opens = (key: CryptoKey, wrapped: string) =>
    unwrapWithPrivateKey(key, wrapped, 'incident-passphrase').then(
      () => true,
      (error: unknown) => {
        if (error instanceof DecryptionError) return false;
        throw error;
      },
    );

  test('when an admin re-wraps every case in pages and completes, then the old company private key opens no stored passphrase and the new one opens all, and the completion is announced', async () => {
    const { company, admin, ids, keys } = await rotatingCompany(5);
    // A report filed during the rotation, by a page that already had the new key.
    const during = await reportFor({ ...company, publicKey: keys.publicKey });
    ids.push((await fileReport(incident.baseUrl, during.body)).uuid);
    const bystander = await seedCompany(test$.deps);
    await fileReport(incident.baseUrl, (await reportFor(bystander)).body);

    const first = await as(admin, 'GET', '/api/incident/company-key/rewrap?key_version=2&limit=2');
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(first.body).toMatchObject({ key_version: 2, previous_key_version: 1, remaining: 6 });
    expect(first.body.cases).toHaveLength(2);
    expect(first.body.cases[0]).toMatchObject({ company_key_version: null, credential: expect.any(Object) });

    const done = await rewrapCompanyCases(staffCall(), await admin.token(), keys, { limit: 2 });
    expect(done.rewrapped).toBe(6);
    expect(done.complete).toMatchObject({ status: 202, body: { remaining: 0 } });

    const stored = await storedWrappings(company);
    expect(stored.map((row) => row.id).sort()).toEqual([...ids].sort());
    for (const row of stored) {
      expect(row.company_key_version).toBe(2);
      expect(await opens(keys.previous, row.company_encrypted_passphrase)).toBe(false);
      expect(await opens(keys.current, row.company_encrypted_passphrase)).toBe(true);
    }
    // Another company's cases are not touched.
    const untouched = await storedWrappings(bystander);
    expect(untouched.map((row) => row.company_key_version)).toEqual([null]);
    expect(await opens(await bystander.privateKey(), untouched[0]!.company_encrypted_passphrase)).toBe(true);

    const announced = await waitFor(async () => published.find((event) => event.company_id === company.companyId), {
      what: 'incident.company_key_rewrapped',
    });
    expect(announced.payload).toEqual({ key_version: 2, previous_key_version: 1 });
    expect(announced.actor).toEqual({ type: 'STAFF', user_id: admin.userId });
  });

  test('while a rotation runs, staff read a case under either key; a batch sent again stores nothing twice', async () => {
    const { company, admin, ids, keys } = await rotatingCompany(2);
    const page = (await as(admin, 'GET', '/api/incident/company-key/rewrap?key_version=2')).body;
    const { rewrapIncidentPassphrase } = await import('@whistle/crypto');
    const wrappings = [
      {
        uuid: page.cases[0].uuid,
        company_encrypted_passphrase: (
          await rewrapIncidentPassphrase({
            ...page.cases[0],
            companyPrivateKeys: [keys.previous],
            newCompanyPublicKey: keys.publicKey,
          })
        ).company_encrypted_passphrase,
      },
    ];
    const stored = await as(admin, 'PUT', '/api/incident/company-key/rewrap', { key_version: 2, wrappings });
    expect(stored.body).toEqual({ stored: 1, remaining: 1 });
    const again = await as(admin, 'PUT', '/api/incident/company-key/rewrap', { key_version: 2, wrappings });
    expect(again.body).toEqual({ stored: 0, remaining: 1 });

    for (const id of ids) {
      const view = await as(admin, 'GET', `/api/incident/${id}`);
      expect(view.status).toBe(200);
      const opened = await openIncidentAsCompany({
        ...view.body.keys,
        companyPrivateKey: keys.current,
        previousCompanyPrivateKey: keys.previous,
      });
      expect(opened.publicKey).toBe(view.body.keys.credential.public_key);
    }

    const early = await as(admin, 'POST', '/api/incident/company-key/rewrap/complete', { key_version: 2 });
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ message: 'Not every case is re-wrapped yet: 1 left', remaining: 1 });
    expect(published.some((event) => event.company_id === company.companyId)).toBe(false);
  });

  test("when a batch names another company's case, a case the admin is excluded from, or a stale key version, then it is refused and nothing changes", async () => {
    const { company, admin, ids, keys } = await rotatingCompany(2);
    const other = await rotatingCompany(1);
    const colleague = await announceStaff(test$.deps, company, 'Oscar Other', ['ADMIN']);
    const excluded = await as(admin, 'PUT', `/api/incident/${ids[0]}/`, { excluded_user_uuids: [colleague.userId] });
    expect(excluded.status).toBe(200);

    const theirPage = (await as(colleague, 'GET', '/api/incident/company-key/rewrap?key_version=2')).body;
    expect(theirPage.cases.map((item: { uuid: string }) => item.uuid)).toEqual([ids[1]]);
    expect(theirPage.remaining).toBe(2);

    const wrapping = (await createIncidentCredentials(keys.publicKey)).payload.company_encrypted_passphrase;
    const before = await storedWrappings(company);
    const foreign = await as(admin, 'PUT', '/api/incident/company-key/rewrap', {
      key_version: 2,
      wrappings: [
        { uuid: ids[1], company_encrypted_passphrase: wrapping },
        { uuid: other.ids[0], company_encrypted_passphrase: wrapping },
      ],
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors).toEqual({ wrappings: ['Unknown case'] });
    const fromExcluded = await as(colleague, 'PUT', '/api/incident/company-key/rewrap', {
      key_version: 2,
      wrappings: [{ uuid: ids[0], company_encrypted_passphrase: wrapping }],
    });
    expect(fromExcluded.status).toBe(400);

    const stale = await as(admin, 'PUT', '/api/incident/company-key/rewrap', {
      key_version: 1,
      wrappings: [{ uuid: ids[1], company_encrypted_passphrase: wrapping }],
    });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe('The company key changed since this page loaded: reload the page');
    const ahead = await as(admin, 'GET', '/api/incident/company-key/rewrap?key_version=3');
    expect(ahead.status).toBe(503);
    expect(ahead.headers.get('retry-after')).toBe('2');

    expect(await storedWrappings(company)).toEqual(before);
    expect((await storedWrappings(other.company))[0]!.company_key_version).toBeNull();
  });

  test('when a page loaded before a rotation sends its report, then it is taken while the previous key lives and refused once it is gone, with nothing stored', async () => {
    const { company, admin, keys } = await rotatingCompany(0);
    const withNewKey = { ...company, publicKey: keys.publicKey };
    const file = async (target: SeededCompany, version: number) =>
      postJson(
        `${incident.baseUrl}/api/incident/`,
        (await reportFor(target, undefined, { company_key_version: version })).body,
      );

    // During the rotation: a page of either key is taken, and each case knows which key wraps it.
    const underPrevious = await file(company, 1);
    const underCurrent = await file(withNewKey, 2);
    expect([underPrevious.status, underCurrent.status]).toEqual([201, 201]);
    const versionOf = new Map((await storedWrappings(company)).map((row) => [row.id, row.company_key_version]));
    expect(versionOf.get((await underPrevious.json()).uuid)).toBe(1);
    expect(versionOf.get((await underCurrent.json()).uuid)).toBe(2);

    // Only the case under the previous key needs re-wrapping.
    const done = await rewrapCompanyCases(staffCall(), await admin.token(), keys);
    expect(done.rewrapped).toBe(1);
    expect(done.complete).toMatchObject({ status: 202, body: { remaining: 0 } });

    // The previous key is gone: a page that still has it is told so, and no case is stored that nobody could open.
    for (const version of [1, 7]) {
      const refused = await file(company, version);
      expect(refused.status).toBe(409);
      expect(await refused.json()).toEqual({
        message: 'The company key has changed since this page was loaded',
        errors: { company_key_version: ['The company key has changed since this page was loaded'] },
      });
    }
    expect(await storedWrappings(company)).toHaveLength(2);
    expect((await file(withNewKey, 2)).status).toBe(201);

    // Completion asked again (its answer lost) is answered as done, not refused.
    const again = await as(admin, 'POST', '/api/incident/company-key/rewrap/complete', { key_version: 2 });
    expect(again).toMatchObject({ status: 202, body: { remaining: 0 } });
  });

  test('when a non-admin asks, or no rotation is under way, then the cases are not handed out', async () => {
    const company = await seedCompany(test$.deps);
    const reviewer = await announceStaff(test$.deps, company, 'Rita Reviewer', ['REVIEWER']);
    const admin = await announceStaff(test$.deps, company, 'Ada Admin', ['ADMIN']);
    await fileReport(incident.baseUrl, (await reportFor(company)).body);
    expect((await as(reviewer, 'GET', '/api/incident/company-key/rewrap?key_version=1')).status).toBe(403);
    const none = await as(admin, 'GET', '/api/incident/company-key/rewrap?key_version=1');
    expect(none.status).toBe(409);
    expect(none.body.message).toBe('No rotation of the company key is under way');
    expect((await as(admin, 'GET', '/api/incident/company-key/rewrap?key_version=x')).status).toBe(400);
  });

  test('when auth says the rotation completed, then no rotation is under way any more', async () => {
    const { company, admin } = await rotatingCompany(0);
    await announce(test$.deps, {
      name: 'company.key_rotation_completed',
      company_id: company.companyId,
      payload: { key_version: 2, previous_key_version: 1, fingerprint: 'AAAA' },
    });
    await waitFor(
      async () =>
        (await as(admin, 'GET', '/api/incident/company-key/rewrap?key_version=2')).status === 409 ? true : undefined,
      { what: 'the completion in the read model' },
    );
  });
});
