import type { EventEnvelope } from '@whistle/contracts';
import type { Database, Queryable } from '../database/database';
import type { NewEvent, Outbox } from './outbox';

/** A transaction that can also record events: they are written to the outbox in it. */
export interface Transaction extends Queryable {
  /** Writes the event in this transaction: it is published if and only if the transaction commits. */
  addEvent(event: NewEvent): Promise<EventEnvelope>;
}

/**
 * Runs `work` in one transaction (committed when it resolves, rolled back when it throws); if it
 * added events, the relay is asked to publish them right after COMMIT, so no caller has to remember
 * to, and none waits for the next relay tick.
 */
export type UnitOfWork = <T>(work: (tx: Transaction) => Promise<T>) => Promise<T>;

/** What a service's writes with events are made from (`createUnitOfWork`, `createWriteWithEvents`). */
export interface EventWriting {
  db: Database;
  outbox: Outbox;
  /** Called after a commit that wrote events: the relay publishes them. */
  afterCommit(): void;
}

export function createUnitOfWork({ db, outbox, afterCommit }: EventWriting): UnitOfWork {
  return async (work) => {
    let events = 0;
    const result = await db.transaction((tx) =>
      work({
        query: (sql, params, options) => tx.query(sql, params, options),
        async addEvent(event) {
          const envelope = await outbox.add(tx, event);
          events += 1;
          return envelope;
        },
      }),
    );
    if (events > 0) afterCommit();
    return result;
  };
}
