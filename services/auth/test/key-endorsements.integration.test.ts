import { randomUUID } from 'node:crypto';
import type { CompanyPublicView, EventEnvelope, TeamKeysResponse } from '@whistle/contracts';
import { createPersonKeys, endorseTeamKey, importPersonKeys, resolveTeamKeys, type PersonKeys } from '@whistle/crypto';
import { SmtpMailer } from '@whistle/mailer';
import { createTestDependencies, testStacks, waitFor, type TestDependencies } from '@whistle/service-kit/testing';
import { recipientOf, startSmtpCatcher, unlockOwnKeys, type SmtpCatcher } from '@whistle/test-support';
import { adminPassword, onboardCompany, passwordLinkTokenIn, staffClient } from './staff-client';
import { startAuth, type RunningAuth } from './support';

const memberPassword = 'member password 5678';
const ENDORSEMENTS = '/api/account/company/keys/endorsements';
type Client = ReturnType<typeof staffClient>;

describe.each(testStacks)('key endorsements, in the auth service, on %s', (stack) => {
  let test$: TestDependencies;
  let smtp: SmtpCatcher;
  let mailer: SmtpMailer;
  let auth: RunningAuth;
  const published: EventEnvelope[] = [];

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['auth-endorsements-observer']);
    await test$.deps.bus.subscribe({
      consumer: 'auth-endorsements-observer',
      events: ['company.key_endorsed'],
      handle: async (event) => void published.push(event),
    });
    smtp = await startSmtpCatcher();
    mailer = new SmtpMailer(smtp.url, 'Whistle <no-reply@whistle.test>');
    auth = await startAuth({ ...test$.deps, mailer });
  });
  afterAll(async () => {
    await auth?.close();
    await mailer?.close();
    await smtp?.close();
    await test$?.dispose();
  });

  /** A company, its admin signed in with their keys unlocked, and a handler with keys. */
  async function company() {
    const onboarded = await onboardCompany(auth);
    const client = staffClient(auth.baseUrl);
    const adminToken = (await client.login(onboarded.email, adminPassword)).body.token as string;
    const admin = await unlockOwnKeys(client.call, adminToken, adminPassword);
    const handler = await invite({ ...onboarded, client, adminToken }, ['HANDLER']);
    const people = await teamOf(client, adminToken);
    const keyOf = (userId: string) => people.find((person) => person.user_id === userId)!;
    const adminKey = people.find((person) => person.roles.includes('ADMIN'))!;
    const view = await publicView(onboarded.urlIdentifier);
    return { ...onboarded, client, adminToken, admin, adminKeyId: adminKey.key_id!, handler, keyOf, view };
  }
  type Company = Awaited<ReturnType<typeof company>>;

  async function invite(co: { domain: string; client: Client; adminToken: string }, roles: string[]) {
    const email = `${roles[0]!.toLowerCase()}-${randomUUID().slice(0, 6)}@${co.domain}`;
    const invited = await co.client.call('POST', '/api/account/company/user_profile/', {
      bearer: co.adminToken,
      body: { email, full_name: 'Hal Handler', roles },
    });
    expect(invited.status).toBe(201);
    const mail = await smtp.waitFor((m) => recipientOf(m) === email, 'invitation');
    expect((await co.client.acceptLink(passwordLinkTokenIn(mail.text!), memberPassword)).status).toBe(204);
    const token = (await co.client.login(email, memberPassword)).body.token as string;
    const person = await unlockOwnKeys(co.client.call, token, memberPassword);
    return { userId: invited.body.uuid as string, token, person };
  }

  const teamOf = async (client: Client, token: string) =>
    ((await client.call('GET', '/api/account/company/keys/people', { bearer: token })).body as TeamKeysResponse).people;
  const publicView = async (urlIdentifier: string) =>
    (await (await fetch(`${auth.baseUrl}/api/account/company/${urlIdentifier}`)).json()) as CompanyPublicView;
  const storedCount = async (companyId: string) =>
    (
      await test$.deps.db.query<{ n: string }>('select count(*) as n from auth.key_endorsement where company_id = $1', [
        companyId,
      ])
    ).rows[0]!.n;

  /** What the admin's browser signs for the handler's current key. */
  async function endorsementOfHandler(co: Company, by: PersonKeys = co.admin, companyId = co.view.company_id!) {
    const key = co.keyOf(co.handler.userId);
    const signed = await endorseTeamKey(by, {
      company_id: companyId,
      key_id: key.key_id!,
      signing_public_key: key.signing_public_key!,
      role: 'HANDLER',
      endorser_key_id: co.adminKeyId,
    });
    const { company_id: _company, ...body } = signed;
    return body;
  }
  const post = (co: Company, body: unknown, token = co.adminToken) =>
    co.client.call('POST', ENDORSEMENTS, { bearer: token, body });

  test("when an admin's browser endorses a handler's key, then the team list says so, and the public view serves it for the discloser's page to trust", async () => {
    const co = await company();
    expect(co.keyOf(co.handler.userId).endorsed).toBe(false);
    const body = await endorsementOfHandler(co);
    expect((await post(co, body)).status).toBe(204);

    const people = await teamOf(co.client, co.adminToken);
    expect(people.find((person) => person.user_id === co.handler.userId)?.endorsed).toBe(true);
    const view = await publicView(co.urlIdentifier);
    expect(view.key_endorsements).toEqual([{ ...body, company_id: co.view.company_id }]);
    // A report that pinned only the admin reaches the handler through it.
    const pinnedAdmin = view.every_case_keys!.find((key) => key.key_id === co.adminKeyId)!;
    const team = await resolveTeamKeys(
      [{ key_id: pinnedAdmin.key_id, signing_public_key: pinnedAdmin.signing_public_key!, role: 'ADMIN' }],
      view.key_endorsements!,
      view.company_id!,
    );
    expect(team.get(body.key_id)?.signing_public_key).toBe(body.signing_public_key);

    // The audit trail hears of it: whose key, in which role, by which key.
    const event = await waitFor(() => published.find((entry) => entry.company_id === co.view.company_id), {
      what: 'company.key_endorsed',
    });
    expect(event.payload).toEqual({
      user_id: co.handler.userId,
      key_id: body.key_id,
      role: 'HANDLER',
      endorser_key_id: co.adminKeyId,
    });

    // Endorsing again (another moment) replaces the admin's earlier endorsement.
    expect((await post(co, await endorsementOfHandler(co))).status).toBe(204);
    expect(await storedCount(co.view.company_id!)).toBe('1');
  });

  test('when the endorsement is not what it says, then 4xx and nothing is stored', async () => {
    const co = await company();
    const other = await company();
    const genuine = await endorsementOfHandler(co);
    const stranger = await importPersonKeys(
      ...(await (async () => {
        const { publicKeys, secret } = await createPersonKeys();
        return [secret, publicKeys] as const;
      })()),
    );
    const refusals: [string, unknown, number, string?][] = [
      ['a handler endorses', genuine, 403, co.handler.token],
      ['with a key that is not the endorser’s current one', { ...genuine, endorser_key_id: randomUUID() }, 409],
      ['of a key that is nobody’s', { ...genuine, key_id: randomUUID() }, 409],
      ['of another company’s member', { ...genuine, key_id: other.keyOf(other.handler.userId).key_id }, 409],
      [
        'of another signing key than the member’s',
        { ...genuine, signing_public_key: other.keyOf(other.handler.userId).signing_public_key },
        409,
      ],
      ['in another role than the member’s', { ...genuine, role: 'ADMIN' }, 409],
      ['of the admin’s own key', { ...genuine, key_id: co.adminKeyId }, 400],
      ['with a malformed signature', { ...genuine, signature: 'v2.not-a-signature' }, 400],
      ['with a signature by another key', await endorsementOfHandler(co, stranger), 400],
      ['signed for another company', await endorsementOfHandler(co, co.admin, other.view.company_id), 400],
      ['with a field missing', { ...genuine, endorsed_at: undefined }, 400],
      ['with a field more', { ...genuine, company_id: other.view.company_id }, 400],
    ];
    for (const [why, body, status, token] of refusals) {
      const answer = await post(co, body, token);
      expect({ why, status: answer.status }).toEqual({ why, status });
      expect(answer.body.message).toEqual(expect.any(String));
    }
    expect(await storedCount(co.view.company_id!)).toBe('0');
    expect((await publicView(co.urlIdentifier)).key_endorsements).toEqual([]);
    expect(published.filter((entry) => entry.company_id === co.view.company_id)).toEqual([]);
  });
});
