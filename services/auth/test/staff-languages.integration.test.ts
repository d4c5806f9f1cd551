import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@whistle/contracts';
import { createRecordingMailer, type RecordingMailer } from '@whistle/mailer/testing';
import { createTestDependencies, testStacks, waitFor, type TestDependencies } from '@whistle/service-kit/testing';
import { adminPassword, confirmationTokenIn, onboardCompany, registerCompany, staffClient } from './staff-client';
import { startAuth, type RunningAuth } from './support';

const allOn = { new_incidents: true, assigned_to_an_incident: true, incident_updates: true, deadlines: true };

/** Issue #29: a staff member's language is any of the eight, from the invitation or the onboarding page on. */
describe.each(testStacks)('staff languages on %s', (stack) => {
  let test$: TestDependencies;
  let auth: RunningAuth;
  let mailer: RecordingMailer;
  const published: EventEnvelope[] = [];

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['auth-languages-observer']);
    await test$.deps.bus.subscribe({
      consumer: 'auth-languages-observer',
      events: ['#'],
      handle: async (event) => void published.push(event),
    });
    mailer = createRecordingMailer();
    auth = await startAuth({ ...test$.deps, mailer });
  });
  afterAll(async () => {
    await auth?.close();
    await test$?.dispose();
  });

  async function admin() {
    const onboarded = await onboardCompany(auth);
    const client = staffClient(auth.baseUrl);
    const token = (await client.login(onboarded.email, adminPassword)).body.token as string;
    const call = (method: string, path: string, body?: unknown) => client.call(method, path, { bearer: token, body });
    const companyId = (await call('GET', '/api/account/company/')).body.uuid as string;
    return { ...onboarded, call, companyId };
  }
  const storedLanguage = async (email: string) =>
    (
      await test$.deps.db.query<{ language: string }>(
        'select language from auth.user_profile where lower(email) = lower($1)',
        [email],
      )
    ).rows[0]?.language;
  const eventOf = (name: string, companyId: string, userId?: string) =>
    waitFor(
      async () =>
        published.find(
          (event) =>
            event.name === name &&
            event.company_id === companyId &&
            (!userId || (event.payload as { user_id?: string }).user_id === userId),
        ),
      { what: name },
    );

  test('when a member sets any of the eight staff languages, then it is kept and announced in user.updated v2; another is a 400 on language', async () => {
    const co = await admin();
    for (const language of ['de', 'es', 'it', 'nl', 'pl', 'pt', 'fr', 'en']) {
      const saved = await co.call('PUT', '/api/account/profile/notifications', { language, notifications: allOn });
      expect(saved.status).toBe(200);
      expect(saved.body.language).toBe(language);
      expect(await storedLanguage(co.email)).toBe(language);
    }
    const updatesOf = () =>
      published.filter((event) => event.name === 'user.updated' && event.company_id === co.companyId);
    await waitFor(async () => updatesOf().length === 8, { what: 'eight user.updated' });
    expect(updatesOf().map((event) => [event.version, (event.payload as { language: string }).language])).toEqual(
      ['de', 'es', 'it', 'nl', 'pl', 'pt', 'fr', 'en'].map((language) => [2, language]),
    );
    for (const language of ['ar', 'pt-BR', 'EN', '']) {
      const refused = await co.call('PUT', '/api/account/profile/notifications', { language, notifications: allOn });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual({ language: ['Unknown language'] });
    }
    expect(await storedLanguage(co.email)).toBe('en');
  });

  test('when an admin invites in Polish, then the account keeps Polish, user.created v2 says so and the invitation is in Polish; an unknown language is a 400', async () => {
    const co = await admin();
    const email = `ola-${randomUUID().slice(0, 6)}@${co.domain}`;
    const refused = await co.call('POST', '/api/account/company/user_profile/', {
      email,
      full_name: 'Ola',
      roles: ['HANDLER'],
      language: 'xx',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual({ language: ['Unknown language'] });
    const invited = await co.call('POST', '/api/account/company/user_profile/', {
      email,
      full_name: 'Ola Nowak',
      roles: ['HANDLER'],
      language: 'pl',
    });
    expect(invited.status).toBe(201);
    expect(await storedLanguage(email)).toBe('pl');
    const created = await eventOf('user.created', co.companyId, invited.body.uuid);
    expect(created).toMatchObject({ version: 2, payload: { user_id: invited.body.uuid, language: 'pl' } });
    const mail = await auth.mailTo(email, /^Zaproszenie do Whistle$/);
    expect(mail.text).toContain('zaproszenie dla: Ola Nowak');
    expect(mail.text).toMatch(/\/company\/password\/change#token=/);
  });

  test('when an admin invites without a language, then the invitee gets the company default if it is a staff language, else the admin’s own', async () => {
    const co = await admin();
    const invite = async () => {
      const email = `m-${randomUUID().slice(0, 6)}@${co.domain}`;
      const invited = await co.call('POST', '/api/account/company/user_profile/', {
        email,
        full_name: 'M',
        roles: ['REVIEWER'],
      });
      expect(invited.status).toBe(201);
      return storedLanguage(email);
    };
    expect(await invite()).toBe('en');
    await co.call('PUT', '/api/account/profile/notifications', { language: 'pt', notifications: allOn });
    expect(
      (await co.call('PUT', '/api/account/company/languages', { offered: ['de', 'ar'], default: 'de' })).status,
    ).toBe(200);
    expect(await invite()).toBe('de');
    expect(
      (await co.call('PUT', '/api/account/company/languages', { offered: ['de', 'ar'], default: 'ar' })).status,
    ).toBe(200);
    expect(await invite()).toBe('pt');
  });

  test('when a company signs up on a Polish page, then its confirmation is in Polish, its admin reads Polish and company.created v2 says so; an Arabic page gets English', async () => {
    const since = auth.mails.length;
    const polish = await registerCompany(auth.baseUrl, undefined, 'pl');
    const arabic = await registerCompany(auth.baseUrl, undefined, 'ar');
    const confirmation = await auth.mailTo(polish.email, /^Potwierdzenie konta firmy w Whistle$/, since);
    expect(confirmation.text).toContain('„Globex”');
    expect(await auth.mailTo(arabic.email, /^Confirm your company’s Whistle account$/, since)).toBeDefined();
    const confirmed = await staffClient(auth.baseUrl).call('POST', '/api/account/company/confirmation', {
      body: { token: confirmationTokenIn(confirmation) },
    });
    expect(confirmed.status).toBe(200);
    expect(await storedLanguage(polish.email)).toBe('pl');
    const created = await waitFor(
      async () =>
        published.find(
          (event) =>
            event.name === 'company.created' &&
            (event.payload as { created_by: { email: string } }).created_by.email === polish.email,
        ),
      { what: 'company.created' },
    );
    expect(created).toMatchObject({ version: 2, payload: { created_by: { email: polish.email, language: 'pl' } } });
    expect(await eventOf('user.created', created.company_id!)).toMatchObject({
      version: 2,
      payload: { language: 'pl' },
    });

    const refused = await fetch(`${auth.baseUrl}/api/account/company`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.8.1.1' },
      body: JSON.stringify({
        ...polish.payload,
        user_profile: { ...polish.payload.user_profile, language: 'klingon' },
      }),
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { errors: Record<string, string[]> }).errors).toEqual({
      'user_profile.language': ['Unknown language'],
    });
  });
});
