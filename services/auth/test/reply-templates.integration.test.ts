import { randomUUID } from 'node:crypto';
import { REPLY_TEMPLATES_PER_COMPANY } from '@whistle/contracts';
import { createRecordingMailer, type RecordingMailer } from '@whistle/mailer/testing';
import { createTestDependencies, testStacks, waitFor, type TestDependencies } from '@whistle/service-kit/testing';
import { adminPassword, onboardCompany, passwordLinkTokenIn, staffClient } from './staff-client';
import { startAuth, type RunningAuth } from './support';

const PATH = '/api/account/company/reply_template/';

/** Issue 23 item 4, reply templates: the company's texts, read by all its staff, managed by its admins. */
describe.each(testStacks)('reply templates on %s', (stack) => {
  let test$: TestDependencies;
  let auth: RunningAuth;
  let mailer: RecordingMailer;

  beforeAll(async () => {
    test$ = await createTestDependencies(stack);
    mailer = createRecordingMailer();
    auth = await startAuth({ ...test$.deps, mailer });
  });
  afterAll(async () => {
    await auth?.close();
    await test$?.dispose();
  });

  /** A company: its admin's calls, and a handler's. */
  async function company() {
    const onboarded = await onboardCompany(auth);
    const client = staffClient(auth.baseUrl);
    const adminToken = (await client.login(onboarded.email, adminPassword)).body.token as string;
    const email = `handler-${randomUUID().slice(0, 6)}@${onboarded.domain}`;
    const invited = await client.call('POST', '/api/account/company/user_profile/', {
      bearer: adminToken,
      body: { email, full_name: 'Hal Handler', roles: ['HANDLER'] },
    });
    expect(invited.status).toBe(201);
    const mail = await waitFor(async () => mailer.sent.find((sent) => sent.to === email), { what: 'invitation' });
    expect((await client.acceptLink(passwordLinkTokenIn(mail.text!), 'handler password 5678')).status).toBe(204);
    const handlerToken = (await client.login(email, 'handler password 5678')).body.token as string;
    return {
      admin: (method: string, path: string, body?: unknown) => client.call(method, path, { bearer: adminToken, body }),
      handler: (method: string, path: string, body?: unknown) =>
        client.call(method, path, { bearer: handlerToken, body }),
    };
  }

  test('when an admin adds, edits and deletes templates, then every staff member of the company reads them, by name, and no other company does', async () => {
    const co = await company();
    const other = await company();
    const added = await co.admin('POST', PATH, {
      name: '  Thanks  ',
      body: 'Thank you for your report.\nWe will reply.',
    });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({
      uuid: expect.any(String),
      name: 'Thanks',
      // None asked for: the company's default language.
      language: 'en',
      body: 'Thank you for your report.\nWe will reply.',
      updated: expect.any(String),
    });
    expect((await co.admin('POST', PATH, { name: 'acknowledged', body: 'We have received it.' })).status).toBe(201);

    const listed = await co.handler('GET', PATH);
    expect(listed.status).toBe(200);
    expect((listed.body as unknown as { name: string }[]).map((template) => template.name)).toEqual([
      'acknowledged',
      'Thanks',
    ]);
    expect((await other.admin('GET', PATH)).body).toEqual([]);

    const one = `${PATH}${added.body.uuid}`;
    const edited = await co.admin('PUT', one, { name: 'Thanks', body: 'Thank you.' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ uuid: added.body.uuid, name: 'Thanks', body: 'Thank you.' });

    // Another company's admin cannot reach it: it is unknown to them.
    expect((await other.admin('PUT', one, { name: 'Mine', body: 'Mine' })).status).toBe(404);
    expect((await other.admin('DELETE', one)).status).toBe(404);
    // A handler reads them but manages none.
    expect((await co.handler('POST', PATH, { name: 'Mine', body: 'Mine' })).status).toBe(403);
    expect((await co.handler('PUT', one, { name: 'Mine', body: 'Mine' })).status).toBe(403);
    expect((await co.handler('DELETE', one)).status).toBe(403);

    expect((await co.admin('DELETE', one)).status).toBe(204);
    expect((await co.admin('DELETE', one)).status).toBe(404);
    expect((await co.admin('PUT', one, { name: 'Thanks', body: 'Again' })).status).toBe(404);
    expect((await co.admin('DELETE', `${PATH}not-a-uuid`)).status).toBe(404);
    expect((await co.handler('GET', PATH)).body).toMatchObject([{ name: 'acknowledged' }]);
    expect((await staffClient(auth.baseUrl).call('GET', PATH)).status).toBe(401);
  });

  test('when a template is not a name and a text of bounded size, or its name is taken, then 400 says which field and why', async () => {
    const co = await company();
    const refused = async (method: string, path: string, body: unknown) => {
      const answer = await co.admin(method, path, body);
      expect(answer.status).toBe(400);
      return answer.body.errors as Record<string, string[]>;
    };
    expect(await refused('POST', PATH, {})).toEqual({
      name: ['This field is required'],
      body: ['This field is required'],
    });
    expect(await refused('POST', PATH, { name: ' ', body: '  \n ' })).toEqual({
      name: ['This field is required'],
      body: ['This field is required'],
    });
    expect(await refused('POST', PATH, { name: 'n'.repeat(81), body: 'b'.repeat(5001) })).toEqual({
      name: ['Ensure this field has no more than 80 characters'],
      body: ['Ensure this field has no more than 5000 characters'],
    });
    expect(await refused('POST', PATH, { name: 'x', body: 'y', case: 'z' })).toEqual({
      non_field_errors: [expect.stringContaining('case')],
    });
    const kept = await co.admin('POST', PATH, { name: 'Kept', body: 'Text' });
    const second = await co.admin('POST', PATH, { name: 'Second', body: 'Text' });
    expect(await refused('POST', PATH, { name: 'Kept', body: 'Other' })).toEqual({
      name: ['A reply template with this name already exists in this language'],
    });
    expect(await refused('PUT', `${PATH}${second.body.uuid}`, { name: 'Kept', body: 'Other' })).toEqual({
      name: ['A reply template with this name already exists in this language'],
    });
    expect(await refused('POST', PATH, { name: 'x', body: 'y', language: 'xx' })).toEqual({
      language: ['Unknown language'],
    });
    expect((await co.admin('GET', PATH)).body).toMatchObject([
      { uuid: kept.body.uuid, name: 'Kept', body: 'Text' },
      { uuid: second.body.uuid, name: 'Second', body: 'Text' },
    ]);
  });

  test('when templates are written in the company’s languages, then each keeps its language, a name is unique per language, and a language it does not offer is refused', async () => {
    const co = await company();
    // The disclosure page offers German and Romanian; the staff languages (French among them) are the company's too.
    expect(
      (await co.admin('PUT', '/api/account/company/languages', { offered: ['de', 'ro'], default: 'de' })).status,
    ).toBe(200);
    const german = await co.admin('POST', PATH, {
      name: 'Eingang',
      body: 'Wir haben Ihre Meldung erhalten.',
      language: 'de',
    });
    expect(german.status).toBe(201);
    expect(german.body).toMatchObject({ name: 'Eingang', language: 'de' });
    expect((await co.admin('POST', PATH, { name: 'Eingang', body: 'Primit.', language: 'ro' })).status).toBe(201);
    expect((await co.admin('POST', PATH, { name: 'Accusé', body: 'Bien reçu.', language: 'fr' })).status).toBe(201);
    const unnamed = await co.admin('POST', PATH, { name: 'Default', body: 'Text' });
    expect(unnamed.body).toMatchObject({ language: 'de' });
    const refusedTr = await co.admin('POST', PATH, { name: 'Alındı', body: 'Text', language: 'tr' });
    expect(refusedTr.status).toBe(400);
    expect(refusedTr.body.errors).toEqual({ language: ['This language is not one of the company’s'] });

    // Renamed and moved to another language; an edit that names none keeps it.
    const one = `${PATH}${german.body.uuid}`;
    const moved = await co.admin('PUT', one, { name: 'Accusé de réception', body: 'Nous avons reçu.', language: 'fr' });
    expect(moved.body).toMatchObject({ name: 'Accusé de réception', language: 'fr', body: 'Nous avons reçu.' });
    expect((await co.admin('PUT', one, { name: 'Accusé de réception', body: 'Reçu.' })).body).toMatchObject({
      language: 'fr',
      body: 'Reçu.',
    });
    expect((await co.admin('PUT', one, { name: 'Accusé', body: 'Reçu.' })).status).toBe(400);

    const listed = (await co.handler('GET', PATH)).body as unknown as { name: string; language: string }[];
    expect(listed.map(({ language, name }) => `${language}:${name}`)).toEqual([
      'de:Default',
      'fr:Accusé',
      'fr:Accusé de réception',
      'ro:Eingang',
    ]);
  });

  test(`when a company keeps ${REPLY_TEMPLATES_PER_COMPANY} templates, then another is refused until one is deleted`, async () => {
    const co = await company();
    for (let index = 0; index < REPLY_TEMPLATES_PER_COMPANY; index += 1)
      expect((await co.admin('POST', PATH, { name: `Template ${index}`, body: 'Text' })).status).toBe(201);
    const over = await co.admin('POST', PATH, { name: 'One more', body: 'Text' });
    expect(over.status).toBe(400);
    expect(over.body.errors).toEqual({
      name: [`A company keeps at most ${REPLY_TEMPLATES_PER_COMPANY} reply templates; delete one first`],
    });
    const first = (await co.admin('GET', PATH)).body as unknown as { uuid: string }[];
    expect(first).toHaveLength(REPLY_TEMPLATES_PER_COMPANY);
    expect((await co.admin('DELETE', `${PATH}${first[0]!.uuid}`)).status).toBe(204);
    expect((await co.admin('POST', PATH, { name: 'One more', body: 'Text' })).status).toBe(201);
  });
});
