import { randomUUID } from 'node:crypto';
import type { Mailer } from '@whistle/mailer';
import {
  asTenant,
  createOutbox,
  messagingMigrations,
  migrate,
  serviceDatabase,
  type WhistleService,
} from '@whistle/service-kit';
import {
  createTestDependencies,
  tablesOutsideTenantWall,
  testStacks,
  waitFor,
  type TestDependencies,
} from '@whistle/service-kit/testing';
import { notificationConfigSchema } from '../src/config';
import { NOTIFICATION_SCHEMA } from '../src/data-access/migrations';
import { createNotificationService } from '../src/service';

describe.each(testStacks)('tenant wall of the notification service on %s', (stack) => {
  let test$: TestDependencies;
  let service: WhistleService;
  // A mail server that is down keeps every mail in the queue, so the queue holds both companies' mails.
  const downMailer: Mailer = {
    kind: 'smtp',
    send: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:25')),
    close: async () => undefined,
  };
  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['notification']);
    await migrate(test$.deps.db, 'producer', messagingMigrations('producer'));
    service = createNotificationService(
      { ...test$.deps, mailer: downMailer },
      notificationConfigSchema.parse({ PUBLIC_URL: 'https://whistle.example' }),
    );
    await service.start();
  });
  afterAll(async () => {
    await service?.stop();
    await test$?.dispose();
  });

  async function publish(name: string, companyId: string, payload: Record<string, unknown>) {
    const envelope = await test$.deps.db.transaction((tx) =>
      createOutbox('producer').add(tx, { name, company_id: companyId, payload }),
    );
    await test$.deps.bus.publish(envelope);
  }

  /** A company as the other services announce it: settings, an admin, a label with its assignee, a report. */
  async function company(): Promise<string> {
    const companyId = randomUUID();
    const admin = { user_id: randomUUID(), email: `ada@${companyId.slice(0, 8)}.example` };
    await publish('company.created', companyId, {
      company_id: companyId,
      url_identifier: `co-${companyId.slice(0, 6)}`,
      name: 'Initech',
      country: 'FR',
      created_by: admin,
      categories: [],
      locations: [],
    });
    await publish('user.created', companyId, { ...admin, full_name: 'Ada', roles: ['ADMIN'] });
    const label = randomUUID();
    await publish('category.created', companyId, {
      category_id: label,
      name: 'Fraud',
      parent_id: null,
      is_active: true,
      assignee_ids: [admin.user_id],
    });
    const incidentId = randomUUID();
    await publish('incident.created', companyId, {
      incident_id: incidentId,
      display_report_number: 1,
      status: 'NEW',
      report_channel: 'online',
      report_anonymously: true,
      category_ids: [label],
      location_id: randomUUID(),
    });
    await waitFor(
      async () =>
        (
          await test$.deps.db.query(
            `select 1 from notification.mail_queue where company_id = $1 and subject = 'New report #1'`,
            [companyId],
          )
        ).rows.length > 0,
      { what: 'the new-report mail in the queue' },
    );
    return companyId;
  }

  test('when the schema is migrated, then every table holding a company’s rows is behind the tenant wall', async () => {
    // outbox: the kit's relay table; the notification service publishes no event.
    expect(await tablesOutsideTenantWall(test$.deps.db, NOTIFICATION_SCHEMA, ['outbox'])).toEqual([]);
  });

  test('when a query forgets its company condition in a company’s tenant scope, then it sees only that company’s read models and queued mails', async () => {
    const first = await company();
    const second = await company();
    for (const table of ['company_preferences', 'staff_member', 'category_assignees', 'incident', 'mail_queue']) {
      const all = await test$.deps.db.query<{ company_id: string }>(
        `select distinct company_id from notification.${table}`,
      );
      expect(all.rows.map((row) => row.company_id)).toEqual(expect.arrayContaining([first, second]));
      const seen = await asTenant(first, () =>
        serviceDatabase(test$.deps.db, NOTIFICATION_SCHEMA).query<{ company_id: string }>(
          `select distinct company_id from notification.${table}`,
        ),
      );
      expect({ table, rows: seen.rows }).toEqual({ table, rows: [{ company_id: first }] });
    }
  });
});
