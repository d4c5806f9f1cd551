import { randomUUID } from 'node:crypto';
import { SmtpMailer } from '@whistle/mailer';
import {
  createOutbox,
  messagingMigrations,
  migrate,
  openDatabase,
  openEventBus,
  type Database,
  type EventBus,
  type WhistleService,
} from '@whistle/service-kit';
import {
  createRecordingLogger,
  createTestDatabase,
  deleteRabbitTopology,
  testAmqpUrl,
  uniqueTestName,
  waitFor,
  type TestDatabase,
} from '@whistle/service-kit/testing';
import { recipientOf, startSmtpCatcher, type SmtpCatcher } from '@whistle/test-support';
import { notificationConfigSchema } from '../src/config';
import { createNotificationService } from '../src/service';

/**
 * The notification service as a cluster runs it: PostgreSQL, RabbitMQ and a real SMTP server on loopback.
 * Each replica has its own connection pool and its own broker connection, so one can die on its own.
 */
describe('case mails over SMTP, on PostgreSQL and RabbitMQ', () => {
  let database: TestDatabase;
  let smtp: SmtpCatcher;
  const exchange = uniqueTestName('whistle.test');
  const closers: (() => Promise<void>)[] = [];
  let producer: { db: Database; bus: EventBus };

  /** A replica, and how it dies as a killed pod does: its broker connection drops, then it is gone. */
  async function replica(): Promise<{ kill(): Promise<void> }> {
    const logger = createRecordingLogger();
    const db = await openDatabase({ databaseUrl: database.url });
    const bus = await openEventBus({ amqpUrl: testAmqpUrl(), exchange, logger });
    const mailer = new SmtpMailer(smtp.url, 'Whistle <whistle@example.test>');
    const service: WhistleService = createNotificationService(
      { logger, db, bus, mailer },
      notificationConfigSchema.parse({ PUBLIC_URL: 'https://whistle.example' }),
    );
    await service.start();
    let alive = true;
    const kill = async () => {
      if (!alive) return;
      alive = false;
      await bus.close();
      await service.stop();
      await mailer.close();
      await db.close();
    };
    closers.push(kill);
    return { kill };
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    smtp = await startSmtpCatcher();
    const db = await openDatabase({ databaseUrl: database.url });
    await migrate(db, 'producer', messagingMigrations('producer'));
    producer = { db, bus: await openEventBus({ amqpUrl: testAmqpUrl(), exchange, logger: createRecordingLogger() }) };
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    await producer?.bus.close();
    await producer?.db.close();
    await smtp?.close();
    await deleteRabbitTopology({ exchanges: [exchange], consumers: ['notification'] });
    await database?.drop();
  });

  const publish = async (name: string, companyId: string, payload: Record<string, unknown>) =>
    producer.bus.publish(
      await producer.db.transaction((tx) =>
        createOutbox('producer').add(tx, { name, company_id: companyId, payload, actor: { type: 'DISCLOSER' } }),
      ),
    );

  test('when the consumer dies in the middle of a burst of reports, then every admin mail arrives over SMTP exactly once, with the number and link only', async () => {
    const first = await replica();
    const companyId = randomUUID();
    const admin = { id: randomUUID(), email: `ada@co-${companyId.slice(0, 8)}.example` };
    await publish('company.created', companyId, {
      company_id: companyId,
      url_identifier: `co-${companyId.slice(0, 6)}`,
      name: 'Initech',
      country: 'FR',
      created_by: { user_id: admin.id, email: admin.email },
      categories: [],
      locations: [],
    });
    await publish('user.created', companyId, {
      user_id: admin.id,
      email: admin.email,
      full_name: 'Ada',
      roles: ['ADMIN'],
    });
    await smtp.waitFor((mail) => recipientOf(mail) === admin.email, 'welcome');

    const reports = Array.from({ length: 30 }, (_, index) => ({ id: randomUUID(), number: index + 1 }));
    for (const report of reports)
      await publish('incident.created', companyId, {
        incident_id: report.id,
        display_report_number: report.number,
        status: 'NEW',
        report_channel: 'online',
        report_anonymously: true,
        category_ids: [],
        location_id: randomUUID(),
      });
    const reportMails = () =>
      smtp.mails.filter((mail) => recipientOf(mail) === admin.email && mail.subject?.startsWith('New report #'));
    await waitFor(() => reportMails().length >= 3, { what: 'the first report mails' });
    // The first replica's broker connection drops mid-burst, as when its pod is killed: what it had not
    // acknowledged goes to the next replica.
    await first.kill();
    await replica();

    await waitFor(() => reportMails().length >= reports.length, { what: 'every report mail', timeoutMs: 30_000 });
    // Settled: nothing more arrives later.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const subjects = reportMails().map((mail) => mail.subject);
    expect(subjects).toHaveLength(reports.length);
    expect(new Set(subjects)).toEqual(new Set(reports.map((report) => `New report #${report.number}`)));
    const mail = reportMails().find((each) => each.subject === 'New report #7')!;
    expect(mail.text?.trim()).toBe(
      [
        'A new report (#7) has been received.',
        '',
        'Open it in Whistle (sign-in required):',
        `https://whistle.example/company/incidents/${reports[6]!.id}`,
        '',
        'Whistle',
      ].join('\n'),
    );
  });
});
