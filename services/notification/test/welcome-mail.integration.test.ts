import { randomUUID } from 'node:crypto';
import { createRecordingMailer } from '@whistle/mailer/testing';
import { createOutbox, messagingMigrations, migrate, type WhistleService } from '@whistle/service-kit';
import { createTestDependencies, testStacks, waitFor, type TestDependencies } from '@whistle/service-kit/testing';
import { notificationConfigSchema } from '../src/config';
import { createNotificationService } from '../src/service';

describe.each(testStacks)('welcome mail on %s', (stack) => {
  let test$: TestDependencies;
  let service: WhistleService;
  const mailer = createRecordingMailer();
  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['notification']);
    await migrate(test$.deps.db, 'producer', messagingMigrations('producer'));
    service = createNotificationService(
      { ...test$.deps, mailer },
      notificationConfigSchema.parse({ PUBLIC_URL: 'https://whistle.example' }),
    );
    await service.start();
  });
  afterAll(async () => {
    await service?.stop();
    await test$?.dispose();
  });

  test('when a company is created, then its first admin gets one mail with the disclosure and login links', async () => {
    const companyId = randomUUID();
    const envelope = await test$.deps.db.transaction((tx) =>
      createOutbox('producer').add(tx, {
        name: 'company.created',
        company_id: companyId,
        payload: {
          company_id: companyId,
          url_identifier: 'initech-ab12cd',
          name: 'Initech',
          country: 'US',
          created_by: { user_id: randomUUID(), email: 'bill@initech.example' },
          categories: [],
          locations: [],
        },
      }),
    );
    await test$.deps.bus.publish(envelope);
    await test$.deps.bus.publish(envelope); // redelivered: still one mail
    const mail = await waitFor(() => mailer.sent.find((sent) => sent.to === 'bill@initech.example'), {
      what: 'welcome mail',
    });
    expect(mail.subject).toBe('Your Whistle account for Initech is ready');
    expect(mail.text).toContain('https://whistle.example/disclose/initech-ab12cd');
    expect(mail.text).toContain('https://whistle.example/company/login');
    const { rows } = await test$.deps.db.query(
      'select name from notification.company_preferences where company_id = $1',
      [companyId],
    );
    expect(rows).toEqual([{ name: 'Initech' }]);
    expect(mailer.sent.filter((sent) => sent.to === 'bill@initech.example')).toHaveLength(1);
  });

  /** A company.created of `version`, its founding admin at `email` reading `language` (v2 only). */
  async function companyCreated(version: 1 | 2, email: string, language?: string) {
    const companyId = randomUUID();
    const envelope = await test$.deps.db.transaction((tx) =>
      createOutbox('producer').add(tx, {
        name: 'company.created',
        version,
        company_id: companyId,
        payload: {
          company_id: companyId,
          url_identifier: `acme-${companyId.slice(0, 6)}`,
          name: 'Acme',
          country: 'PL',
          created_by: { user_id: randomUUID(), email, ...(language && { language }) },
          categories: [],
          locations: [],
        },
      }),
    );
    await test$.deps.bus.publish(envelope);
    return waitFor(() => mailer.sent.find((sent) => sent.to === email), { what: `welcome mail to ${email}` });
  }

  test('when a company signed up on a Polish page (company.created v2), then the welcome mail is in Polish, with both links', async () => {
    const mail = await companyCreated(2, 'ola@acme.example', 'pl');
    expect(mail.subject).toBe('Konto Whistle firmy Acme jest gotowe');
    expect(mail.text).toContain('Kanał zgłoszeń firmy Acme jest gotowy.');
    expect(mail.text).toMatch(/^https:\/\/whistle\.example\/disclose\/acme-/m);
    expect(mail.text.split('\n')).toContain('https://whistle.example/company/login');
  });

  test('when company.created is v1 (no language), then the welcome mail is in English', async () => {
    expect((await companyCreated(1, 'old@acme.example')).subject).toBe('Your Whistle account for Acme is ready');
  });
});
