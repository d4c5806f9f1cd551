import { startCaseWorker } from './case-worker';

/** A worker for one CSV export (tests replace this module). */
export const startExportWorker = (): Worker => startCaseWorker();
