/**
 * @jest-environment node
 */
import { createApiClient } from '@whistle/api-client';
import {
  createCompanyCredentials,
  createIncidentCredentials,
  createPersonKeys,
  decryptReportFields,
  importPersonKeys,
  openIncidentAsDiscloser,
  openIncidentWithGrant,
  openPinnedTeamKeys,
  submissionFingerprint,
} from '@whistle/crypto';
import { emptyReportForm } from './report-form';
import { prepareReport, recipientKeysOf, submitReport, teamKeysOf } from './submit-report';

const company = { url_identifier: 'acme', key_version: 1 };
const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

async function prepared() {
  const credentials = await createIncidentCredentials((await createCompanyCredentials()).credential.public_key);
  const form = { ...emptyReportForm(), category_uuids: ['c'], location_uuid: 'l', description: 'It happened' };
  return { credentials, prepared: await prepareReport({ company, credentials, form, language: 'en' }) };
}

describe('sending a report', () => {
  const realFetch = global.fetch;
  afterEach(() => {
    global.fetch = realFetch;
  });

  it('when the connection drops and the gateway is briefly away, then the very same request is sent again with its key until it is answered', async () => {
    const sent: Array<{ key: string | null; body: string }> = [];
    const outcomes = [
      () => Promise.reject(new TypeError('Failed to fetch')),
      () => Promise.resolve(answer(503, { message: 'Service Unavailable' })),
      () => Promise.resolve(answer(201, { uuid: 'incident-1', retrieval_id: 'abc123', display_report_number: 7 })),
    ];
    global.fetch = jest.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
      sent.push({ key: new Headers(init?.headers).get('Idempotency-Key'), body: String(init?.body) });
      return outcomes[sent.length - 1]!();
    }) as typeof fetch;
    const { credentials, prepared: report } = await prepared();
    const result = await submitReport({
      api: createApiClient(),
      company,
      credentials,
      prepared: report,
      files: [],
      retryDelaysMs: [0, 0, 0],
    });
    expect(result.secretCode.startsWith('abc123:')).toBe(true);
    expect(sent).toHaveLength(3);
    expect(report.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(sent.map((request) => request.key))).toEqual(new Set([report.idempotencyKey]));
    expect(new Set(sent.map((request) => request.body)).size).toBe(1);
    // The receipt: the number the server answered, the fingerprint of the body it took (as the server parses it).
    expect(result.receipt).toEqual({
      reportNumber: 7,
      sentAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      fingerprint: await submissionFingerprint(JSON.parse(sent[2]!.body)),
    });
    expect(result.receipt.fingerprint).not.toBe(
      await submissionFingerprint({ ...JSON.parse(sent[2]!.body), fields: [{ name: 'description', value: 'v2.x' }] }),
    );
  });

  it('when the server refuses the report (400) or every try fails, then it stops and the error reaches the page', async () => {
    const { credentials, prepared: report } = await prepared();
    const send = () =>
      submitReport({ api: createApiClient(), company, credentials, prepared: report, files: [], retryDelaysMs: [0] });

    global.fetch = jest.fn(async () => answer(400, { message: 'Bad Request', errors: { description: ['x'] } }));
    await expect(send()).rejects.toMatchObject({ status: 400 });
    expect(global.fetch).toHaveBeenCalledTimes(1);

    global.fetch = jest.fn(async () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(send()).rejects.toBeInstanceOf(TypeError);
    expect(global.fetch).toHaveBeenCalledTimes(2);
  });
});

describe('grants to the default assignees', () => {
  it("when the report's categories have default assignees, then their keys get grants that open the report, and keys of other categories none", async () => {
    const person = async () => {
      const { publicKeys, secret } = await createPersonKeys();
      return importPersonKeys(secret, publicKeys);
    };
    const [hal, olga] = await Promise.all([person(), person()]);
    const halKey = { key_id: 'a0000000-0000-4000-8000-00000000000a', public_key: hal.publicKeys.public_key };
    const olgaKey = { key_id: 'b0000000-0000-4000-8000-00000000000b', public_key: olga.publicKeys.public_key };
    const withTeam = {
      ...company,
      categories: [
        { uuid: 'c1', name: 'Fraud', parent_uuid: null, recipient_keys: [halKey] },
        { uuid: 'c2', name: 'Safety', parent_uuid: null, recipient_keys: [olgaKey, halKey] },
      ],
    };
    expect(recipientKeysOf(withTeam).map((key) => key.key_id)).toEqual([halKey.key_id, olgaKey.key_id]);
    const credentials = await createIncidentCredentials(
      (await createCompanyCredentials()).credential.public_key,
      recipientKeysOf(withTeam),
    );
    const form = { ...emptyReportForm(), category_uuids: ['c1'], location_uuid: 'l', description: 'It happened' };
    const { payload } = await prepareReport({ company: withTeam, credentials, form, language: 'de' });
    expect(payload.grants?.map((grant) => grant.key_id)).toEqual([halKey.key_id]);
    const opened = await openIncidentWithGrant({
      ...payload,
      grant: payload.grants![0]!.wrapped_passphrase,
      person: hal,
    });
    expect(opened.publicKey).toBe(payload.credential.public_key);

    const none = await prepareReport({ company, credentials, form, language: 'de' });
    expect(none.payload.grants).toBeUndefined();
  });
});

describe("the reporter's language", () => {
  it("when a report is prepared on a page in German, then 'de' travels with it as a field, encrypted and bound to its name", async () => {
    const { publicKeys, secret } = await createPersonKeys();
    const reader = await importPersonKeys(secret, publicKeys);
    const key = { key_id: 'a0000000-0000-4000-8000-00000000000a', public_key: reader.publicKeys.public_key };
    const withReader = {
      ...company,
      categories: [{ uuid: 'c1', name: 'Fraud', parent_uuid: null, recipient_keys: [key] }],
    };
    const credentials = await createIncidentCredentials(
      (await createCompanyCredentials()).credential.public_key,
      recipientKeysOf(withReader),
    );
    const form = { ...emptyReportForm(), category_uuids: ['c1'], location_uuid: 'l', description: 'Es geschah' };
    const { payload } = await prepareReport({ company: withReader, credentials, form, language: 'de' });
    const sent = payload.fields.find((field) => field.name === 'language');
    expect(sent?.value).toMatch(/^v2\./);
    const opened = await openIncidentWithGrant({
      ...payload,
      grant: payload.grants![0]!.wrapped_passphrase,
      person: reader,
    });
    const fields = await decryptReportFields(opened, payload.fields);
    expect(fields.find((field) => field.name === 'language')?.value).toBe('de');
    // Moved under another name, it does not open.
    await expect(decryptReportFields(opened, [{ name: 'description', value: sent!.value }])).rejects.toThrow();
  });
});

describe('keeping people out', () => {
  const key = (id: string, role: 'ADMIN' | 'HANDLER', name: string) => ({
    key_id: id,
    public_key: '',
    role,
    display_name: name,
  });
  const hal = key('a0000000-0000-4000-8000-00000000000a', 'HANDLER', 'Hal');
  const olga = key('b0000000-0000-4000-8000-00000000000b', 'HANDLER', 'Olga');
  const ada = key('c0000000-0000-4000-8000-00000000000c', 'ADMIN', 'Ada');
  const bea = key('d0000000-0000-4000-8000-00000000000d', 'ADMIN', 'Bea');

  async function sent(excluded: string[], categories = ['c1']) {
    const people = await Promise.all(
      [hal, olga, ada, bea].map(async (each) => {
        const { publicKeys } = await createPersonKeys();
        return { ...each, public_key: publicKeys.public_key };
      }),
    );
    const [h, o, a, b] = people as [typeof hal, typeof olga, typeof ada, typeof bea];
    const view = {
      ...company,
      categories: [
        { uuid: 'c1', name: 'Fraud', parent_uuid: null, recipient_keys: [h, o] },
        { uuid: 'c2', name: 'Safety', parent_uuid: null, recipient_keys: [] },
      ],
      every_case_keys: [a, b],
    };
    const credentials = await createIncidentCredentials(
      (await createCompanyCredentials()).credential.public_key,
      recipientKeysOf(view),
    );
    const form = {
      ...emptyReportForm(),
      category_uuids: categories,
      location_uuid: 'l',
      description: 'It happened',
      excluded_key_ids: excluded,
    };
    return (await prepareReport({ company: view, credentials, form, language: 'en' })).payload;
  }

  it('when the discloser keeps a handler out, then the report excludes them and grants only the others of its categories', async () => {
    const payload = await sent([olga.key_id]);
    expect(payload.excluded_key_ids).toEqual([olga.key_id]);
    expect(payload.grants?.map((grant) => grant.key_id)).toEqual([hal.key_id]);
    expect(payload.company_encrypted_passphrase).toEqual(expect.any(String));
  });

  it('when the discloser keeps an admin out, then the report has no company wrapping and the remaining readers each get a grant', async () => {
    const payload = await sent([ada.key_id]);
    expect(payload.company_encrypted_passphrase).toBeNull();
    expect(payload.excluded_key_ids).toEqual([ada.key_id]);
    expect(payload.grants?.map((grant) => grant.key_id).sort()).toEqual([hal.key_id, olga.key_id, bea.key_id].sort());
  });

  it('when an exclusion names someone who no longer reads the chosen categories, then it is dropped', async () => {
    const payload = await sent([olga.key_id], ['c2']);
    expect(payload.excluded_key_ids).toBeUndefined();
    expect(payload.grants).toBeUndefined();
  });
});

describe('the team keys a report pins (docs/security.md, "Signed staff messages")', () => {
  const key = (id: string, role: 'ADMIN' | 'HANDLER', signing?: string) => ({
    key_id: id,
    public_key: `v1.${'P'.repeat(87)}`,
    role,
    ...(signing ? { signing_public_key: signing } : {}),
  });

  it('when the company view lists signing keys, then each listed person is pinned once, and one listed without is left out', () => {
    const view = {
      categories: [
        {
          uuid: 'c1',
          name: 'Fraud',
          parent_uuid: null,
          recipient_keys: [key('k1', 'HANDLER', 'v1.S1'), key('k2', 'HANDLER')],
        },
        { uuid: 'c2', name: 'Safety', parent_uuid: null, recipient_keys: [key('k1', 'HANDLER', 'v1.S1')] },
      ],
      every_case_keys: [key('k3', 'ADMIN', 'v1.S3')],
    };
    expect(teamKeysOf(view)).toEqual([
      { key_id: 'k1', signing_public_key: 'v1.S1', role: 'HANDLER' },
      { key_id: 'k3', signing_public_key: 'v1.S3', role: 'ADMIN' },
    ]);
  });

  it('when a report is made with them, then the discloser opens it with the pinned list and reads the list back', async () => {
    const admin = await createPersonKeys();
    const teamKeys = [
      { key_id: 'k1', signing_public_key: admin.publicKeys.signing_public_key, role: 'ADMIN' as const },
    ];
    const credentials = await createIncidentCredentials(
      (await createCompanyCredentials()).credential.public_key,
      [],
      teamKeys,
    );
    const form = { ...emptyReportForm(), category_uuids: ['c'], location_uuid: 'l', description: 'It happened' };
    const { payload } = await prepareReport({ company, credentials, form, language: 'en' });
    expect(payload.discloser_team_keys).toMatch(/^v2\./);
    const stored = { ...payload, discloserPassphrase: credentials.discloserPassphrase };
    await expect(openIncidentAsDiscloser(stored)).resolves.toBeDefined();
    await expect(openPinnedTeamKeys(stored)).resolves.toEqual(teamKeys);
  });
});
