/** Values the data retention page's pact and its provider verification (services/incident/test/pact) share. */
/** The state answers `staffToken`, an admin's access token, in a company whose policy is the default. */
export const RETENTION_ADMIN_STATE = 'an admin of a company keeping closed cases the default 12 months';
/** The state answers `staffToken`, a reviewer's access token. */
export const RETENTION_REVIEWER_STATE = 'a reviewer of a company with a retention policy';
export const EXAMPLE_STAFF_TOKEN = 'eyJhbGciOiJFUzI1NiJ9.e30.c2lnbmF0dXJl';

/**
 * A company key rotation to version 2 under way (auth's event delivered), one case still under version 1; the
 * state answers `staffToken` (an admin's) and `caseUuid`.
 */
export const ROTATION_STATE = 'an admin of a company rotating its key, one case still under the old key';
/** The same with every case already re-wrapped: completing is accepted. */
export const ROTATION_DONE_STATE = 'an admin of a company rotating its key, every case re-wrapped';
export const EXAMPLE_CASE_UUID = '00000000-0000-4000-8000-0000000000c5';
