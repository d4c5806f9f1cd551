/** Values the data retention page's pact and its provider verification (services/incident/test/pact) share. */
/** The state answers `staffToken`, an admin's access token, in a company whose policy is the default. */
export const RETENTION_ADMIN_STATE = 'an admin of a company keeping closed cases the default 12 months';
/** The state answers `staffToken`, a reviewer's access token. */
export const RETENTION_REVIEWER_STATE = 'a reviewer of a company with a retention policy';
export const EXAMPLE_STAFF_TOKEN = 'eyJhbGciOiJFUzI1NiJ9.e30.c2lnbmF0dXJl';
