import { startCaseWorker } from './case-worker';

/** A worker for one search in reports (tests replace this module). */
export const startSearchWorker = (): Worker => startCaseWorker();
