import { randomUUID } from 'node:crypto';
import { openDatabase, type Database } from '../src/database';
import { housekeepingWords } from '../src/jobs/periodic-job';
import { InProcessEventBus } from '../src/messaging';
import { createServiceLifecycle } from '../src/service-lifecycle';
import { createRecordingLogger, waitFor } from '../src/testing';

describe('periodic jobs of a service lifecycle', () => {
  const logger = createRecordingLogger();
  let db: Database;
  let bus: InProcessEventBus;
  beforeAll(async () => {
    db = await openDatabase({});
    bus = new InProcessEventBus({ logger });
  });
  afterAll(async () => {
    await bus?.close();
    await db?.close();
  });

  test('when the service starts, then its jobs run once its schema is migrated, and stop (their last run awaited) before the relay', async () => {
    const schema = `jobs_${randomUUID().slice(0, 8)}`;
    const lifecycle = createServiceLifecycle({
      name: 'jobs',
      schema,
      migrations: [
        {
          name: 'jobs',
          migrations: [{ id: '001_tick', sql: `create table ${schema}.tick (at timestamptz not null default now())` }],
        },
      ],
      deps: { logger, db, bus },
    });
    let finished = 0;
    const job = lifecycle.periodic({
      name: 'ticker',
      // Writes to the service's own table (which exists only once migrated) and announces it through the outbox.
      run: async () => {
        await lifecycle.unitOfWork(async (tx) => {
          await tx.query(`insert into ${schema}.tick default values`);
          await tx.addEvent({
            name: 'user.mfa_enabled',
            company_id: randomUUID(),
            payload: { user_id: randomUUID() },
          });
        });
        await new Promise((resolve) => setTimeout(resolve, 30));
        finished += 1;
      },
      intervalMs: 5,
      words: housekeepingWords('Ticking'),
    });
    // Nothing runs before start.
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(finished).toBe(0);
    await lifecycle.start();
    await waitFor(() => finished >= 2, { what: 'two runs' });
    const stopping = lifecycle.stop();
    await stopping;
    const after = finished;
    const { rows } = await db.query<{ count: number }>(`select count(*)::int as count from ${schema}.tick`);
    // The run in progress when stop was asked finished before stop resolved; none started after.
    expect(rows[0]!.count).toBe(after);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(finished).toBe(after);
    expect(logger.entries.filter((entry) => entry.level === 'warn')).toEqual([]);
    await expect(job.runOnce()).resolves.toBeUndefined();
  });
});
