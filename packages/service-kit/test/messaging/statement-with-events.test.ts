import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@whistle/contracts';
import { createServiceLifecycle, type ServiceLifecycle } from '../../src/service-lifecycle';
import { createTestDependencies, testStacks, waitFor, type TestDependencies } from '../../src/testing';

const SCHEMA = 'sww';

const migrations = [
  {
    name: 'sww',
    migrations: [
      {
        id: '001_item',
        sql: `create table sww.item (id uuid primary key, company_id uuid not null, number integer not null,
                                 unique (company_id, number));`,
      },
    ],
  },
];

const reported = (companyId: string, itemId: string, number: number) => ({
  name: 'incident.created',
  company_id: companyId,
  payload: {
    incident_id: itemId,
    display_report_number: number,
    status: 'NEW',
    report_channel: 'online',
    report_anonymously: true,
    category_ids: [],
    location_id: randomUUID(),
  },
});

/** Stores an item unless its id is taken, and announces it twice, only if it was stored. */
const storing = (companyId: string, itemId: string, number: number) => ({
  ctes: `stored as (insert into sww.item (id, company_id, number) values ($2, $1, $3) on conflict (id) do nothing
                    returning id)`,
  params: [companyId, itemId, number],
  select: 'select exists (select 1 from stored) as stored',
  events: [reported(companyId, itemId, number), reported(companyId, itemId, number + 1)],
  onlyIf: 'exists (select 1 from stored)',
});

describe.each(testStacks)('writeWithEvents on %s', (stack) => {
  let test$: TestDependencies;
  let lifecycle: ServiceLifecycle;
  const received: EventEnvelope[] = [];
  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['sww-observer']);
    await test$.deps.bus.subscribe({
      consumer: 'sww-observer',
      events: ['incident.created'],
      handle: async (event) => void received.push(event),
    });
    lifecycle = createServiceLifecycle({ name: 'sww', schema: SCHEMA, migrations, deps: test$.deps });
    await lifecycle.start();
  });
  afterAll(async () => {
    await lifecycle?.stop();
    await test$?.dispose();
  });

  const outboxOf = async (itemId: string) =>
    (
      await test$.deps.db.query<{ payload: { display_report_number: number }; position: string }>(
        `select payload, position from ${SCHEMA}.outbox where payload->>'incident_id' = $1 order by position`,
        [itemId],
      )
    ).rows;

  it('when the statement stores a change, then its events are written in order with it and published', async () => {
    const companyId = randomUUID();
    const itemId = randomUUID();
    expect(await lifecycle.writeWithEvents(storing(companyId, itemId, 41))).toEqual({ stored: true });
    const rows = await outboxOf(itemId);
    expect(rows.map((row) => row.payload.display_report_number)).toEqual([41, 42]);
    const published = await waitFor(
      () => {
        const mine = received.filter((event) => (event.payload as { incident_id: string }).incident_id === itemId);
        return mine.length === 2 ? mine : undefined;
      },
      { what: 'both events on the bus' },
    );
    expect(
      published.map((event) => (event.payload as { display_report_number: number }).display_report_number).sort(),
    ).toEqual([41, 42]);
  });

  it('when the statement stores nothing, then no event is written', async () => {
    const companyId = randomUUID();
    const itemId = randomUUID();
    await test$.deps.db.query(`insert into ${SCHEMA}.item (id, company_id, number) values ($1, $2, 7)`, [
      itemId,
      companyId,
    ]);
    expect(await lifecycle.writeWithEvents(storing(companyId, itemId, 8))).toEqual({ stored: false });
    expect(await outboxOf(itemId)).toEqual([]);
  });

  it('when an event does not match the catalogue, then nothing is written', async () => {
    const companyId = randomUUID();
    const itemId = randomUUID();
    const statement = storing(companyId, itemId, 1);
    await expect(
      lifecycle.writeWithEvents({
        ...statement,
        events: [{ ...statement.events[0]!, payload: { ...statement.events[0]!.payload, report_channel: 'pigeon' } }],
      }),
    ).rejects.toThrow();
    expect((await test$.deps.db.query(`select 1 from ${SCHEMA}.item where id = $1`, [itemId])).rows).toEqual([]);
    expect(await outboxOf(itemId)).toEqual([]);
  });

  it('when the statement fails, then neither the change nor its events are stored', async () => {
    const companyId = randomUUID();
    await test$.deps.db.query(`insert into ${SCHEMA}.item (id, company_id, number) values ($1, $2, 1)`, [
      randomUUID(),
      companyId,
    ]);
    const itemId = randomUUID();
    // Number 1 is the company's already: the unique key refuses the item, and its events go with it.
    await expect(lifecycle.writeWithEvents(storing(companyId, itemId, 1))).rejects.toThrow();
    expect((await test$.deps.db.query(`select 1 from ${SCHEMA}.item where id = $1`, [itemId])).rows).toEqual([]);
    expect(await outboxOf(itemId)).toEqual([]);
  });
});
