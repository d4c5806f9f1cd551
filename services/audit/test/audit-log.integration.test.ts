import { randomUUID } from 'node:crypto';
import { createOutbox, messagingMigrations, migrate, type Queryable } from '@whistle/service-kit';
import { createTestDependencies, testStacks, waitFor, type TestDependencies } from '@whistle/service-kit/testing';
import { auditSubject } from '../src/domain/record-event.use-case';
import { createAuditService } from '../src/service';

/** Publishes through a real outbox, as the producing services do. */
async function publishUserCreated(test$: TestDependencies, companyId: string, userId: string) {
  const outbox = createOutbox('producer');
  const envelope = await test$.deps.db.transaction((tx) =>
    outbox.add(tx, {
      name: 'user.created',
      company_id: companyId,
      payload: { user_id: userId, email: 'h@corp.example', full_name: 'H', roles: ['HANDLER'] },
    }),
  );
  await test$.deps.bus.publish(envelope);
  return envelope;
}

async function auditRows(db: Queryable, companyId: string) {
  const { rows } = await db.query<{ id: string; name: string; table_identifier: string; object_id: string }>(
    'select id, name, table_identifier, object_id from audit.audit_event where company_id = $1',
    [companyId],
  );
  return rows;
}

describe.each(testStacks)('audit log on %s', (stack) => {
  let test$: TestDependencies;
  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['audit']);
    await migrate(test$.deps.db, 'producer', messagingMigrations('producer'));
    await createAuditService(test$.deps).start();
  });
  afterAll(async () => {
    await test$?.dispose();
  });

  test('when an event is published twice, then it is recorded once with its subject', async () => {
    const companyId = randomUUID();
    const userId = randomUUID();
    const envelope = await publishUserCreated(test$, companyId, userId);
    await test$.deps.bus.publish(envelope);
    const rows = await waitFor(
      async () => {
        const found = await auditRows(test$.deps.db, companyId);
        return found.length > 0 ? found : undefined;
      },
      { what: 'audit row' },
    );
    // Give the duplicate its chance to be (wrongly) recorded before counting.
    await publishUserCreated(test$, companyId, randomUUID());
    await waitFor(async () => (await auditRows(test$.deps.db, companyId)).length === 2, { what: 'second audit row' });
    expect(rows).toEqual([
      { id: envelope.id, name: 'user.created', table_identifier: 'user_profile', object_id: userId },
    ]);
    expect((await auditRows(test$.deps.db, companyId)).filter((row) => row.id === envelope.id)).toHaveLength(1);
  });

  test('when anyone tries to rewrite history, then the database refuses', async () => {
    await expect(test$.deps.db.query("update audit.audit_event set name = 'tampered'")).rejects.toThrow(/append-only/);
    await expect(test$.deps.db.query('delete from audit.audit_event')).rejects.toThrow(/append-only/);
  });
});

test('when an event names a nested subject, then its table identifier joins the words', () => {
  const base = { id: randomUUID(), version: 1, company_id: null, occurred_at: new Date().toISOString() };
  expect(auditSubject({ ...base, name: 'company.created', payload: { company_id: 'c' } })).toEqual({
    tableIdentifier: 'company',
    objectId: 'c',
  });
  expect(
    auditSubject({
      ...base,
      name: 'incident.message.created',
      payload: { incident_message_id: 'm', incident_id: 'i' },
    }),
  ).toEqual({ tableIdentifier: 'incident_message', objectId: 'm' });
});
