import type { PGlite } from '@electric-sql/pglite';
import type { Logger } from '../logging/logger';

/**
 * PostgreSQL's autovacuum, for PGlite. PGlite runs PostgreSQL as a single backend with no postmaster, so the
 * autovacuum launcher never starts (`autovacuum` still reads `on`): without this, dead rows are never reclaimed
 * (the outbox, the mail queue, rate-limit counters and every updated case grow their tables for ever), statistics
 * are never refreshed (plans drift as a company's cases grow) and the visibility map is never set, so an index-only
 * scan fetches every row from the table anyway (all 10,001 rows of a capped count on PGlite, docs/performance.md).
 *
 * A round picks the tables autovacuum would, with its default thresholds, from the cumulative statistics, and
 * processes them one at a time: VACUUM (ANALYZE) where dead or newly inserted rows passed the vacuum thresholds,
 * ANALYZE where only changes since the last analysis did.
 */
const AUTOVACUUM_DEFAULTS = {
  /** autovacuum_vacuum_threshold and autovacuum_vacuum_scale_factor */
  vacuumThreshold: 50,
  vacuumScaleFactor: 0.2,
  /** autovacuum_vacuum_insert_threshold and autovacuum_vacuum_insert_scale_factor */
  insertThreshold: 1000,
  insertScaleFactor: 0.2,
  /** autovacuum_analyze_threshold and autovacuum_analyze_scale_factor */
  analyzeThreshold: 50,
  analyzeScaleFactor: 0.1,
} as const;

/** What a round did to one table. */
export interface MaintainedTable {
  table: string;
  action: 'vacuum' | 'analyze';
}

const d = AUTOVACUUM_DEFAULTS;
const rows = 'greatest(c.reltuples, 0)';
const needsVacuum = `(s.n_dead_tup > ${d.vacuumThreshold} + ${d.vacuumScaleFactor} * ${rows}
  or s.n_ins_since_vacuum > ${d.insertThreshold} + ${d.insertScaleFactor} * ${rows})`;
const needsAnalyze = `s.n_mod_since_analyze > ${d.analyzeThreshold} + ${d.analyzeScaleFactor} * ${rows}`;

/**
 * One round: the tables past a threshold, each vacuumed or analysed. Statements run outside any transaction
 * (VACUUM cannot run in one) and queue behind requests on PGlite's one connection like any other statement.
 */
export async function maintainPglite(pglite: PGlite): Promise<MaintainedTable[]> {
  // Statistics reach the shared counters when the backend has been idle a second; a round reads them fresh.
  await pglite.query('select pg_stat_force_next_flush()');
  const due = await pglite.query<{ name: string; vacuum: boolean }>(
    `select format('%I.%I', s.schemaname, s.relname) as name, ${needsVacuum} as vacuum
       from pg_stat_user_tables s join pg_class c on c.oid = s.relid
      where ${needsVacuum} or ${needsAnalyze}
      order by 1`,
  );
  const done: MaintainedTable[] = [];
  for (const { name, vacuum } of due.rows) {
    await pglite.exec(vacuum ? `vacuum (analyze) ${name}` : `analyze ${name}`);
    done.push({ table: name, action: vacuum ? 'vacuum' : 'analyze' });
  }
  return done;
}

/** Rounds every `intervalMs` (autovacuum_naptime is a minute) until `stop()`, which waits for a round under way. */
export function startPgliteMaintenance(
  pglite: PGlite,
  { intervalMs, logger }: { intervalMs: number; logger?: Logger },
): { stop(): Promise<void> } {
  let round: Promise<void> = Promise.resolve();
  let failing = false;
  const timer = setInterval(() => {
    round = round.then(async () => {
      if (pglite.closed) return;
      try {
        const done = await maintainPglite(pglite);
        if (done.length > 0) logger?.debug({ tables: done }, 'PGlite maintenance');
        if (failing) logger?.info('PGlite maintenance works again');
        failing = false;
      } catch (err) {
        // Logged once until a round succeeds: a closed or busy database would otherwise log every minute.
        if (!failing) logger?.warn({ err }, 'PGlite maintenance failed; retried every round');
        failing = true;
      }
    });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await round;
    },
  };
}
