import path from 'node:path';

/** Values the staff pages' pacts and their provider verifications share (the states insert them). */
export const PACT_DIR = path.resolve(__dirname, '../../../pacts');
export const STAFF_PACT_COMPANY = 'acme-cases-pact';
/** Provider states: each answers the values the interactions take from it (`fromProviderState`). */
export const CASE_STATE = `an admin of ${STAFF_PACT_COMPANY} with a reported case`;
export const FILE_STATE = 'a staff file token for a case with a file';
/** Reporting: the state answers `staffToken` and the period `from`–`to` (today), in which the case was reported. */
export const REPORTING_STATE = `an admin of ${STAFF_PACT_COMPANY} with a case reported today`;
/**
 * A report taken by telephone (issue 26): the state answers `staffToken` (a handler's), and the company's
 * `urlIdentifier`, `categoryUuid` and `locationUuid` a record names.
 */
export const RECORD_STATE = `a handler of ${STAFF_PACT_COMPANY} taking a report by telephone`;
/** The state answers `staffToken`, a reviewer's. */
export const REVIEWER_STATE = `a reviewer of ${STAFF_PACT_COMPANY}`;
export const EXAMPLE_CASE = '7a1c5d1a-3b2f-4c6d-8e9f-0a1b2c3d4e5f';
export const EXAMPLE_FILE = '7a1c5d1a-3b2f-4c6d-8e9f-0a1b2c3d4e60';
export const EXAMPLE_TOKEN = 'eyJhbGciOiJFUzI1NiJ9.e30.c2lnbmF0dXJl';
/** The audit trail of EXAMPLE_CASE as an admin of the company reads it (the state answers `staffToken`). */
export const CASE_TRAIL_STATE = `an admin of ${STAFF_PACT_COMPANY} whose case ${EXAMPLE_CASE} was opened and annotated by them`;
/** The state answers `staffToken`, an admin's, and `viewUuid`, a saved view of theirs (status NEW, soonest deadline first). */
export const SAVED_VIEW_STATE = `an admin of ${STAFF_PACT_COMPANY} with a saved view`;
export const EXAMPLE_VIEW = '7a1c5d1a-3b2f-4c6d-8e9f-0a1b2c3d4e70';
