import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@whistle/contracts';
import { migrate, openDatabase, type Database } from '../../src/database';
import { createOutbox, messagingMigrations } from '../../src/messaging';
import { createUnitOfWork } from '../../src/messaging/unit-of-work';
import { createServiceLifecycle } from '../../src/service-lifecycle';
import { createTestDependencies, testStacks, waitFor, type TestDependencies } from '../../src/testing';

const userCreated = (companyId: string) => ({
  name: 'user.created',
  company_id: companyId,
  payload: { user_id: randomUUID(), email: 'h@corp.example', full_name: 'H', roles: ['HANDLER'] },
});

describe('createUnitOfWork', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase({});
    await migrate(db, 'uow', messagingMigrations('uow'), {
      name: 'uow',
      migrations: [{ id: '001_thing', sql: 'create table uow.thing (id uuid primary key)' }],
    });
  });
  afterAll(() => db.close());

  const outboxRows = async (companyId: string) =>
    (await db.query('select id from uow.outbox where company_id = $1', [companyId])).rows.length;

  it('when the work adds events and commits, then the change and the events are stored and the relay is asked once, after COMMIT', async () => {
    const afterCommit = jest.fn();
    const unitOfWork = createUnitOfWork({ db, outbox: createOutbox('uow'), afterCommit });
    const companyId = randomUUID();
    const id = randomUUID();
    const result = await unitOfWork(async (tx) => {
      await tx.query('insert into uow.thing (id) values ($1)', [id]);
      await tx.addEvent(userCreated(companyId));
      await tx.addEvent(userCreated(companyId));
      expect(afterCommit).not.toHaveBeenCalled();
      return 'done';
    });
    expect(result).toBe('done');
    expect(afterCommit).toHaveBeenCalledTimes(1);
    expect(await outboxRows(companyId)).toBe(2);
    expect((await db.query('select 1 from uow.thing where id = $1', [id])).rows).toHaveLength(1);
  });

  it('when the work throws after adding an event, then nothing is stored and the relay is not asked', async () => {
    const afterCommit = jest.fn();
    const unitOfWork = createUnitOfWork({ db, outbox: createOutbox('uow'), afterCommit });
    const companyId = randomUUID();
    const id = randomUUID();
    await expect(
      unitOfWork(async (tx) => {
        await tx.query('insert into uow.thing (id) values ($1)', [id]);
        await tx.addEvent(userCreated(companyId));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(afterCommit).not.toHaveBeenCalled();
    expect(await outboxRows(companyId)).toBe(0);
    expect((await db.query('select 1 from uow.thing where id = $1', [id])).rows).toHaveLength(0);
  });

  it('when the work adds no event, then the relay is not asked', async () => {
    const afterCommit = jest.fn();
    const unitOfWork = createUnitOfWork({ db, outbox: createOutbox('uow'), afterCommit });
    await unitOfWork((tx) => tx.query('select 1'));
    expect(afterCommit).not.toHaveBeenCalled();
  });

  it('when an event does not match the catalogue, then the transaction is refused', async () => {
    const unitOfWork = createUnitOfWork({ db, outbox: createOutbox('uow'), afterCommit: jest.fn() });
    const id = randomUUID();
    await expect(
      unitOfWork(async (tx) => {
        await tx.query('insert into uow.thing (id) values ($1)', [id]);
        await tx.addEvent({ name: 'user.created', company_id: randomUUID(), payload: { report: 'in clear' } });
      }),
    ).rejects.toThrow();
    expect((await db.query('select 1 from uow.thing where id = $1', [id])).rows).toHaveLength(0);
  });
});

describe.each(testStacks)("a service lifecycle's unit of work on %s", (stack) => {
  let test$: TestDependencies;
  const received: EventEnvelope[] = [];
  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['uow-observer']);
    await test$.deps.bus.subscribe({
      consumer: 'uow-observer',
      events: ['user.created'],
      handle: async (event) => void received.push(event),
    });
  });
  afterAll(async () => {
    await test$?.dispose();
  });

  it('when a write commits an event, then the relay publishes it to the bus', async () => {
    const lifecycle = createServiceLifecycle({ name: 'uow', schema: 'uow', migrations: [], deps: test$.deps });
    await lifecycle.start();
    try {
      const companyId = randomUUID();
      const added = await lifecycle.unitOfWork((tx) => tx.addEvent(userCreated(companyId)));
      const published = await waitFor(() => received.find((event) => event.id === added.id), {
        what: 'the event on the bus',
      });
      expect(published).toMatchObject({ name: 'user.created', company_id: companyId });
    } finally {
      await lifecycle.stop();
    }
  });
});
