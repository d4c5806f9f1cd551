import path from 'node:path';

/** Values the audit log's pact and its provider verification (services/audit/test/pact) share. */
export const PACT_DIR = path.resolve(__dirname, '../../../pacts');
/** The admin the state signs in; their sign-ins are in the trail. */
export const AUDIT_ADMIN = {
  uuid: '5d2f0c1e-8a4b-4c3d-9e2f-1a2b3c4d5e6f',
  companyUuid: '5d2f0c1e-8a4b-4c3d-9e2f-1a2b3c4d5e70',
  fullName: 'Ada Lovelace',
};
/** The state answers `staffToken`, the admin's access token. */
export const AUDIT_LOG_STATE = `an admin whose sign-ins are in the audit trail of their company`;
export const EXAMPLE_TOKEN = 'eyJhbGciOiJFUzI1NiJ9.e30.c2lnbmF0dXJl';
