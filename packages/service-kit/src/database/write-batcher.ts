import { AsyncResource } from 'node:async_hooks';
import { context as traceContext } from '@opentelemetry/api';
import DataLoader from 'dataloader';

export interface WriteBatcherOptions<I, O> {
  /**
   * Writes a batch of items, typically in one statement: one answer per item, in the items' order, or an Error
   * for an item that failed alone. A rejection fails every item of the batch.
   */
  write(items: readonly I[]): Promise<readonly (O | Error)[]>;
  /** Items in one batch at most (what one statement's parameters should carry). */
  maxBatchSize: number;
  /** Batches in flight at once. Items that arrive while none is free wait, and go together in the next. */
  maxConcurrentBatches: number;
}

export interface WriteBatcher<I, O> {
  /** Resolves with the item's answer once the batch it went in has been written. */
  write(item: I): Promise<O>;
}

/**
 * Group commit for a hot write path: concurrent callers' writes go to the database together, a batch per
 * statement (and per WAL flush), instead of one statement, round trip and commit each. Under no load a write goes
 * alone at once (the next turn of the event loop); under load, the writes that arrive while the batches in flight
 * are running wait for one of them to finish and then go together, so batches grow with the load and no timer
 * delays anything.
 *
 * Batches run in the async context the batcher was created in (a service's start), never in the context of the
 * caller whose write happened to open the batch: a batch carries many callers' writes, so it must not run in one
 * caller's tenant scope (`asTenant`). Only its tracing is that caller's: the batch's statements are spans of the
 * trace of the write that opened it (the others' traces show them waiting).
 */
export function createWriteBatcher<I, O>(options: WriteBatcherOptions<I, O>): WriteBatcher<I, O> {
  const { maxBatchSize, maxConcurrentBatches } = options;
  if (maxBatchSize < 1 || maxConcurrentBatches < 1) throw new Error('A write batcher needs room for one batch');
  const home = new AsyncResource('WriteBatcher');
  let inFlight = 0;
  // Batches formed and waiting for a free slot; DataLoader keeps adding callers' items to the newest one until it
  // is dispatched or full.
  const ready: Array<() => void> = [];

  const dispatchWhileFree = () => {
    while (inFlight < maxConcurrentBatches && ready.length > 0) ready.shift()!();
  };

  const loader = new DataLoader<I, O>(
    async (items) => {
      inFlight += 1;
      try {
        return await options.write(items);
      } finally {
        inFlight -= 1;
        dispatchWhileFree();
      }
    },
    {
      cache: false,
      maxBatchSize,
      batchScheduleFn: (dispatch) => {
        // Called by the write that opens the batch, in its context: its trace is the one the batch continues.
        const opener = traceContext.active();
        ready.push(() => home.runInAsyncScope(() => traceContext.with(opener, dispatch)));
        // After the callers of this turn of the event loop have added their items.
        setImmediate(dispatchWhileFree);
      },
    },
  );

  return { write: (item) => loader.load(item) };
}
