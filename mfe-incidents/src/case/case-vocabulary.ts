import type { IncidentClockName, IncidentOutcome, IncidentStatus } from '@whistle/contracts';

/*
 * The contracts' case vocabulary, as the pages need it (a test keeps them equal): importing the values
 * from @whistle/contracts would bring its zod schemas (about 90 KB) into the browser for a few lists.
 */
export const INCIDENT_STATUSES: readonly IncidentStatus[] = [
  'NEW',
  'ACKNOWLEDGED',
  'ASSESSMENT',
  'INVESTIGATION',
  'CLOSED',
  'REOPENED',
];

export const INCIDENT_OUTCOMES: readonly IncidentOutcome[] = [
  'substantiated',
  'unsubstantiated',
  'inconclusive',
  'referred',
  'out_of_scope',
  'spam',
  'withdrawn',
];

export const STATUS_TRANSITIONS: Readonly<Record<IncidentStatus, readonly IncidentStatus[]>> = {
  NEW: ['ACKNOWLEDGED', 'CLOSED'],
  ACKNOWLEDGED: ['ASSESSMENT', 'INVESTIGATION', 'CLOSED'],
  ASSESSMENT: ['INVESTIGATION', 'CLOSED'],
  INVESTIGATION: ['ASSESSMENT', 'CLOSED'],
  REOPENED: ['ASSESSMENT', 'INVESTIGATION', 'CLOSED'],
  CLOSED: ['REOPENED'],
};

export const CLOCK_NAMES: readonly IncidentClockName[] = ['acknowledgement', 'feedback', 'resolution'];
