import type { QueryOptions } from '../database/database';
import type { NewEvent } from './outbox';
import type { EventWriting } from './unit-of-work';

/** One statement that stores a change and announces it (see `WriteWithEvents`). */
export interface StatementWithEvents {
  /** The statement's CTEs, without `WITH`; its parameters are `$1`…`$n` of `params`. */
  ctes: string;
  params: readonly unknown[];
  /** Its answer: a query over its CTEs that yields exactly one row. */
  select: string;
  events: readonly NewEvent[];
  /** An SQL condition over its CTEs: the events are written only if it holds (the change was stored). */
  onlyIf?: string;
  /** A name to prepare it under (hot statements of fixed text; see `QueryOptions`). */
  name?: string;
}

/**
 * Runs one statement that stores a change and writes its events to the outbox, committed on its own: no
 * BEGIN and COMMIT around it, one round trip instead of one per statement plus two, and no lock it takes held
 * while a result travels to the service and the next statement back. The relay is asked to publish right after,
 * as by a unit of work. Resolves with the `select` row.
 */
export type WriteWithEvents = <R extends Record<string, unknown>>(statement: StatementWithEvents) => Promise<R>;

export function createWriteWithEvents({ db, outbox, afterCommit }: EventWriting): WriteWithEvents {
  return async <R extends Record<string, unknown>>(statement: StatementWithEvents) => {
    const insert = outbox.insertCte(statement.events, statement.params.length + 1, statement.onlyIf);
    const sql = `WITH ${statement.ctes},
      outbox_written AS (${insert.sql})
      SELECT answer.*, (SELECT count(*)::int FROM outbox_written) AS outbox_written FROM (${statement.select}) AS answer`;
    const options: QueryOptions | undefined = statement.name ? { name: statement.name } : undefined;
    const { rows } = await db.query<R & { outbox_written: number }>(sql, [...statement.params, insert.value], options);
    const row = rows[0];
    if (rows.length !== 1 || !row)
      throw new Error(`A statement with events must answer one row, it answered ${rows.length}`);
    const { outbox_written: written, ...answer } = row;
    if (written > 0) afterCommit();
    return answer as unknown as R;
  };
}
