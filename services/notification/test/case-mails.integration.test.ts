/* eslint-disable max-lines -- one service per stack serves every case here; split, each file would start and migrate it again. */
import { randomUUID } from 'node:crypto';
import type { EventActor } from '@whistle/contracts';
import type { Mailer } from '@whistle/mailer';
import { createRecordingMailer } from '@whistle/mailer/testing';
import { createOutbox, messagingMigrations, migrate, type WhistleService } from '@whistle/service-kit';
import { createTestDependencies, testStacks, waitFor, type TestDependencies } from '@whistle/service-kit/testing';
import { notificationConfigSchema } from '../src/config';
import { createNotificationService } from '../src/service';

const allOn = { new_incidents: true, assigned_to_an_incident: true, incident_updates: true, deadlines: true };

describe.each(testStacks)('case mails on %s', (stack) => {
  let test$: TestDependencies;
  let service: WhistleService;
  const mailer = createRecordingMailer();
  /** While set, the mail server refuses every mail, naming its recipient as nodemailer's errors do. */
  let mailServerDown = false;
  const flakyMailer: Mailer = {
    kind: 'smtp',
    async send(message) {
      if (mailServerDown)
        throw Object.assign(
          new Error(`Can't send mail - all recipients were rejected: 451 <${message.to}> try later`),
          {
            code: 'EENVELOPE',
            responseCode: 451,
            rejected: [message.to],
          },
        );
      await mailer.send(message);
    },
    close: async () => undefined,
  };
  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['notification']);
    await migrate(test$.deps.db, 'producer', messagingMigrations('producer'));
    service = createNotificationService(
      { ...test$.deps, mailer: flakyMailer },
      notificationConfigSchema.parse({ PUBLIC_URL: 'https://whistle.example' }),
    );
    await service.start();
  });
  afterAll(async () => {
    await service?.stop();
    await test$?.dispose();
  });

  /** An event as another service's outbox writes it, delivered on the bus; answers the envelope. */
  async function publish(
    name: string,
    companyId: string,
    payload: Record<string, unknown>,
    actor?: EventActor,
    version = 1,
  ) {
    const envelope = await test$.deps.db.transaction((tx) =>
      createOutbox('producer').add(tx, { name, version, company_id: companyId, payload, actor }),
    );
    await test$.deps.bus.publish(envelope);
    return envelope;
  }

  /** A company with an admin, a reviewer who is the default assignee of a label, and a French handler. */
  async function company() {
    const companyId = randomUUID();
    const domain = `co-${companyId.slice(0, 8)}.example`;
    const people = {
      admin: { id: randomUUID(), email: `ada@${domain}`, roles: ['ADMIN'] },
      reviewer: { id: randomUUID(), email: `rita@${domain}`, roles: ['REVIEWER'] },
      handler: { id: randomUUID(), email: `henri@${domain}`, roles: ['HANDLER'] },
    };
    const label = randomUUID();
    await publish('company.created', companyId, {
      company_id: companyId,
      url_identifier: `co-${companyId.slice(0, 6)}`,
      name: 'Initech',
      country: 'FR',
      created_by: { user_id: people.admin.id, email: people.admin.email },
      categories: [],
      locations: [],
    });
    for (const person of Object.values(people))
      await publish('user.created', companyId, {
        user_id: person.id,
        email: person.email,
        full_name: person.email,
        roles: person.roles,
      });
    await publish('user.updated', companyId, {
      user_id: people.handler.id,
      email: people.handler.email,
      full_name: 'Henri',
      roles: ['HANDLER'],
      language: 'fr',
      notifications: allOn,
    });
    await publish('category.created', companyId, {
      category_id: label,
      name: 'Fraud',
      parent_id: null,
      is_active: true,
      assignee_ids: [people.reviewer.id],
    });
    const mailsTo = (email: string) => mailer.sent.filter((sent) => sent.to === email);
    await waitFor(async () => mailsTo(people.admin.email).length === 1, { what: 'the welcome mail' });
    return { companyId, people, label, mailsTo };
  }

  const report = (companyId: string, label: string, number: number) => {
    const incidentId = randomUUID();
    return {
      incidentId,
      send: () =>
        publish(
          'incident.created',
          companyId,
          {
            incident_id: incidentId,
            display_report_number: number,
            status: 'NEW',
            report_channel: 'online',
            report_anonymously: true,
            category_ids: [label],
            location_id: randomUUID(),
          },
          { type: 'DISCLOSER' },
        ),
    };
  };

  test('when a report comes in, then the admins and its label’s assignees get a mail with its number and link only; a redelivery sends nothing more', async () => {
    const co = await company();
    const incident = report(co.companyId, co.label, 7);
    const envelope = await incident.send();
    await test$.deps.bus.publish(envelope);
    await waitFor(async () => co.mailsTo(co.people.reviewer.email).length === 1, { what: 'the reviewer mail' });
    const [toAdmin] = co.mailsTo(co.people.admin.email).slice(1);
    expect(toAdmin).toEqual({
      to: co.people.admin.email,
      subject: 'New report #7',
      text: [
        'A new report (#7) has been received.',
        '',
        'Open it in Whistle (sign-in required):',
        `https://whistle.example/company/incidents/${incident.incidentId}`,
        '',
        'Whistle',
      ].join('\n'),
    });
    expect(co.mailsTo(co.people.handler.email)).toEqual([]);
    expect(co.mailsTo(co.people.admin.email)).toHaveLength(2);
  });

  test('when the discloser kept someone out of the report (v2), then they get no mail of it, now or later; the others do', async () => {
    const co = await company();
    const incidentId = randomUUID();
    const payload = {
      incident_id: incidentId,
      display_report_number: 9,
      status: 'NEW',
      report_channel: 'online',
      report_anonymously: true,
      category_ids: [co.label],
      location_id: randomUUID(),
    };
    const envelope = await test$.deps.db.transaction((tx) =>
      createOutbox('producer').add(tx, {
        name: 'incident.created',
        version: 2,
        company_id: co.companyId,
        payload: { ...payload, excluded_user_ids: [co.people.reviewer.id] },
        actor: { type: 'DISCLOSER' },
      }),
    );
    await test$.deps.bus.publish(envelope);
    await waitFor(async () => co.mailsTo(co.people.admin.email).length === 2, { what: 'the admin mail' });
    // Overdue: even named among its assignees, the person kept out hears nothing; the admins do.
    await publish(
      'incident.deadline',
      co.companyId,
      {
        incident_id: incidentId,
        display_report_number: 9,
        clock: 'acknowledgement',
        state: 'overdue',
        due_at: '2026-12-02T09:30:00.000Z',
        assignee_ids: [co.people.reviewer.id],
      },
      { type: 'SYSTEM' },
    );
    await waitFor(async () => co.mailsTo(co.people.admin.email).length === 3, { what: 'the overdue mail' });
    expect(co.mailsTo(co.people.reviewer.email)).toEqual([]);
  });

  test('when a member was invited in Polish (user.created v2) or changed to Polish (user.updated v2), then their case mails are in Polish', async () => {
    const co = await company();
    const invited = { id: randomUUID(), email: `ola@${co.people.admin.email.split('@')[1]}` };
    await publish(
      'user.created',
      co.companyId,
      { user_id: invited.id, email: invited.email, full_name: 'Ola', roles: ['ADMIN'], language: 'pl' },
      undefined,
      2,
    );
    await publish(
      'user.updated',
      co.companyId,
      {
        user_id: co.people.admin.id,
        email: co.people.admin.email,
        full_name: 'Ada',
        roles: ['ADMIN'],
        language: 'pl',
        notifications: allOn,
      },
      undefined,
      2,
    );
    // The people's read model and the case mails are fed by different consumers: the report waits for the first.
    await waitFor(
      async () =>
        (
          await test$.deps.db.query(
            `select 1 from notification.staff_member where user_id = any($1::uuid[]) and language = 'pl'`,
            [[invited.id, co.people.admin.id]],
          )
        ).rows.length === 2,
      { what: 'both members in Polish in the read model' },
    );
    await report(co.companyId, co.label, 12).send();
    await waitFor(async () => co.mailsTo(invited.email).length === 1, { what: 'the invited admin’s mail' });
    await waitFor(async () => co.mailsTo(co.people.admin.email).length === 2, { what: 'the first admin’s mail' });
    for (const mail of [co.mailsTo(invited.email)[0], co.mailsTo(co.people.admin.email)[1]]) {
      expect(mail.subject).toBe('Nowe zgłoszenie nr 12');
      expect(mail.text.split('\n')[0]).toBe('Wpłynęło nowe zgłoszenie (nr 12).');
    }
  });

  test('when a handler is assigned and the discloser writes, then the handler is told in French; staff messages and an excluded person get nothing', async () => {
    const co = await company();
    const incident = report(co.companyId, co.label, 8);
    await incident.send();
    await publish(
      'incident.assigned',
      co.companyId,
      {
        incident_id: incident.incidentId,
        display_report_number: 8,
        assignee_ids: [co.people.handler.id, co.people.reviewer.id],
        added_ids: [co.people.handler.id],
        removed_ids: [],
      },
      { type: 'STAFF', user_id: co.people.admin.id },
    );
    const assigned = await waitFor(async () => co.mailsTo(co.people.handler.email)[0], { what: 'the assignment mail' });
    expect(assigned.subject).toBe('Le signalement n° 8 vous a été attribué');

    const message = (sender: 'DISCLOSER' | 'STAFF') =>
      publish('incident.message.created', co.companyId, {
        incident_id: incident.incidentId,
        incident_message_id: randomUUID(),
        sender_source: sender,
      });
    await message('STAFF');
    await message('DISCLOSER');
    await waitFor(async () => co.mailsTo(co.people.handler.email).length === 2, { what: 'the message mail' });
    expect(co.mailsTo(co.people.handler.email)[1]?.subject).toBe('Nouveau message sur le signalement n° 8');
    // The reviewer got the new report and the discloser's message, not the staff message.
    await waitFor(async () => co.mailsTo(co.people.reviewer.email).length === 2, { what: 'the reviewer mails' });

    await publish('incident.exclusion.changed', co.companyId, {
      incident_id: incident.incidentId,
      excluded_user_ids: [co.people.handler.id],
      added_ids: [co.people.handler.id],
      removed_ids: [],
    });
    await publish(
      'incident.file.created',
      co.companyId,
      {
        incident_id: incident.incidentId,
        incident_file_id: randomUUID(),
        incident_message_id: null,
        file_size: 10,
        mime_type: 'text/plain',
      },
      { type: 'DISCLOSER' },
    );
    await waitFor(async () => co.mailsTo(co.people.reviewer.email).length === 3, { what: 'the file mail' });
    expect(co.mailsTo(co.people.reviewer.email)[2]?.subject).toBe('New file on report #8');
    expect(co.mailsTo(co.people.handler.email)).toHaveLength(2);
  });

  test('when the company turns new-report mails off, or a member turns assignment mails off, then those mails stop', async () => {
    const co = await company();
    await publish('company.updated', co.companyId, {
      name: 'Initech',
      country: 'FR',
      resolution_deadline_days: 14,
      notifications: { ...allOn, new_incidents: false },
    });
    await publish('user.updated', co.companyId, {
      user_id: co.people.handler.id,
      email: co.people.handler.email,
      full_name: 'Henri',
      roles: ['HANDLER'],
      language: 'fr',
      notifications: { ...allOn, assigned_to_an_incident: false },
    });
    const incident = report(co.companyId, co.label, 9);
    await incident.send();
    await publish('incident.assigned', co.companyId, {
      incident_id: incident.incidentId,
      display_report_number: 9,
      assignee_ids: [co.people.handler.id, co.people.reviewer.id],
      added_ids: [co.people.handler.id, co.people.reviewer.id],
      removed_ids: [],
    });
    await waitFor(async () => co.mailsTo(co.people.reviewer.email).length === 1, { what: 'the reviewer assignment' });
    expect(co.mailsTo(co.people.reviewer.email)[0]?.subject).toBe('Report #9 was assigned to you');
    expect(co.mailsTo(co.people.handler.email)).toEqual([]);
    expect(co.mailsTo(co.people.admin.email)).toHaveLength(1);
  });

  test('when a clock is due soon, then the assignees are told; when it is overdue, then the admins too, with the due time and no content', async () => {
    const co = await company();
    const incident = report(co.companyId, co.label, 10);
    await incident.send();
    const deadline = (state: 'due_soon' | 'overdue') =>
      publish(
        'incident.deadline',
        co.companyId,
        {
          incident_id: incident.incidentId,
          display_report_number: 10,
          clock: 'acknowledgement',
          state,
          due_at: '2026-12-02T09:30:00.000Z',
          assignee_ids: [co.people.handler.id],
        },
        { type: 'SYSTEM' },
      );
    await deadline('due_soon');
    const dueSoon = await waitFor(async () => co.mailsTo(co.people.handler.email)[0], { what: 'the due-soon mail' });
    expect(dueSoon.subject).toBe('Signalement n° 10 : accusé de réception à envoyer bientôt');
    expect(dueSoon.text).toContain("d'ici le 2026-12-02 09:30 (UTC)");
    expect(dueSoon.text).toContain(`https://whistle.example/company/incidents/${incident.incidentId}`);

    await deadline('overdue');
    const overdue = await waitFor(async () => co.mailsTo(co.people.admin.email)[2], { what: 'the admin overdue mail' });
    expect(overdue.subject).toBe('Report #10: acknowledgement overdue');
    expect(overdue.text).toContain('was due to be acknowledged by 2026-12-02 09:30 (UTC)');
    await waitFor(async () => co.mailsTo(co.people.handler.email).length === 2, { what: 'the handler overdue mail' });
    // The reviewer got the new report only: deadline mails go to the case's assignees (and admins when overdue).
    expect(co.mailsTo(co.people.reviewer.email)).toHaveLength(1);
  });

  test('when a closed case is announced for deletion, then the admins are told the number, date and link, in their language, per their switches; its deletion drops it here', async () => {
    const co = await company();
    const french = { id: randomUUID(), email: `adele@${co.people.admin.email.split('@')[1]}` };
    const quiet = { id: randomUUID(), email: `quentin@${co.people.admin.email.split('@')[1]}` };
    for (const [admin, language, notifications] of [
      [french, 'fr', allOn],
      [quiet, 'en', { ...allOn, deadlines: false }],
    ] as const) {
      await publish('user.created', co.companyId, {
        user_id: admin.id,
        email: admin.email,
        full_name: admin.email,
        roles: ['ADMIN'],
      });
      await publish('user.updated', co.companyId, {
        user_id: admin.id,
        email: admin.email,
        full_name: admin.email,
        roles: ['ADMIN'],
        language,
        notifications,
      });
    }
    const incident = report(co.companyId, co.label, 12);
    await incident.send();
    await waitFor(async () => co.mailsTo(french.email).length === 1, { what: 'the new-report mail' });
    const retentionDue = (number: number, incidentId = incident.incidentId) =>
      publish(
        'incident.retention_due',
        co.companyId,
        { incident_id: incidentId, display_report_number: number, delete_at: '2027-03-01T04:00:00.000Z' },
        { type: 'SYSTEM' },
      );
    await retentionDue(12);

    const toAdmin = await waitFor(async () => co.mailsTo(co.people.admin.email)[2], { what: 'the admin warning' });
    expect(toAdmin).toEqual({
      to: co.people.admin.email,
      subject: 'Report #12 will be deleted on 2027-03-01 04:00 (UTC)',
      text: [
        "Report #12 was closed and reaches the end of the company's retention period: it will be deleted for good, with its messages and files, on 2027-03-01 04:00 (UTC). Reopen it before then to keep it.",
        '',
        'Open it in Whistle (sign-in required):',
        `https://whistle.example/company/incidents/${incident.incidentId}`,
        '',
        'Whistle',
      ].join('\n'),
    });
    const toFrench = await waitFor(async () => co.mailsTo(french.email)[1], { what: 'the French warning' });
    expect(toFrench.subject).toBe('Le signalement n° 12 sera supprimé le 2027-03-01 04:00 (UTC)');
    // Admins only: the label's reviewer heard of the new report, not of its deletion; Quentin turned deadline mails off.
    expect(co.mailsTo(co.people.reviewer.email)).toHaveLength(1);
    expect(co.mailsTo(quiet.email).map((mail) => mail.subject)).toEqual(['New report #12']);

    // With the company's deadline mails off, nobody is warned.
    await publish('company.updated', co.companyId, {
      name: 'Initech',
      country: 'FR',
      resolution_deadline_days: 14,
      notifications: { ...allOn, deadlines: false },
    });
    const other = report(co.companyId, co.label, 13);
    await other.send();
    await waitFor(async () => co.mailsTo(french.email).length === 3, { what: 'the second new-report mail' });
    await retentionDue(13, other.incidentId);

    const deleted = await publish(
      'incident.deleted',
      co.companyId,
      { incident_id: incident.incidentId, display_report_number: 12, reason: 'retention' },
      { type: 'SYSTEM' },
    );
    await waitFor(
      async () =>
        (await test$.deps.db.query('select 1 from notification.inbox where event_id = $1', [deleted.id])).rows.length >
        0,
      { what: 'the deletion handled' },
    );
    const { rows } = await test$.deps.db.query(
      'select incident_id from notification.incident where incident_id = any($1::uuid[])',
      [[incident.incidentId, other.incidentId]],
    );
    expect(rows).toEqual([{ incident_id: other.incidentId }]);
    // Handled in order on one queue: the second warning was handled before the deletion, and mailed nobody.
    expect(co.mailsTo(french.email)).toHaveLength(3);
    expect(co.mailsTo(co.people.admin.email)).toHaveLength(4);
    // The next test takes the mail server down: nothing of this one may still be waiting to be sent.
    await waitFor(async () => (await test$.deps.db.query('select 1 from notification.mail_queue')).rows.length === 0, {
      what: 'the mail queue drained',
    });
  });

  test('when the mail server is down, then the event is still handled once and its mails go out when it is back', async () => {
    const co = await company();
    mailServerDown = true;
    try {
      const incident = report(co.companyId, co.label, 11);
      await incident.send();
      // Handled: the case is known, and its mails wait in the queue rather than failing the event.
      await waitFor(
        async () =>
          (
            await test$.deps.db.query('select 1 from notification.incident where incident_id = $1', [
              incident.incidentId,
            ])
          ).rows.length === 1,
        { what: 'the event handled' },
      );
      const { rows } = await test$.deps.db.query<{ count: string }>(
        "select count(*) from notification.mail_queue where subject = 'New report #11'",
      );
      expect(Number(rows[0]?.count)).toBe(2);
      await waitFor(() => test$.deps.logger.entries.some((entry) => entry.message.startsWith('Mails cannot be sent')), {
        what: 'a send tried during the outage',
      });
    } finally {
      mailServerDown = false;
    }
    await waitFor(
      async () =>
        co.mailsTo(co.people.reviewer.email).length === 1 &&
        co.mailsTo(co.people.admin.email).some((mail) => mail.subject === 'New report #11'),
      { what: 'the queued mails sent after the outage' },
    );
    expect(co.mailsTo(co.people.admin.email).filter((mail) => mail.subject === 'New report #11')).toHaveLength(1);
    // The outage is told once when it starts and once when it ends, with the server's codes and no recipient.
    const outage = test$.deps.logger.entries.filter((entry) => entry.message.startsWith('Mails '));
    expect(outage.map((entry) => entry.message)).toEqual([
      'Mails cannot be sent; they stay queued and are retried',
      'Mails are being sent again',
    ]);
    expect((outage[0]!.fields.err as Error).message).toBe('The mail server did not take a mail (EENVELOPE 451)');
    // Errors written out as the log's serializer would: message, stack and every field of theirs.
    const logText = JSON.stringify(test$.deps.logger.entries, (_key, value: unknown) =>
      value instanceof Error ? { ...value, message: value.message, stack: value.stack } : value,
    );
    expect(logText).not.toContain(co.people.reviewer.email);
    // A sent mail leaves the queue after the SMTP server has accepted it, so the row may outlive the receipt by a moment.
    await waitFor(async () => (await test$.deps.db.query('select 1 from notification.mail_queue')).rows.length === 0, {
      what: 'the mail queue drained',
    });
  });
});
