import path from 'node:path';

/** Values the discloser pacts and their provider verifications share (the states insert them). */
export const PACT_DIR = path.resolve(__dirname, '../../../pacts');
export const PACT_COMPANY = 'acme-disclose-pact';
export const PACT_CATEGORY = '5b0f3c1e-8a3e-4f7a-9d1a-6f2b8c3d4e01';
export const PACT_SUB_CATEGORY = '5b0f3c1e-8a3e-4f7a-9d1a-6f2b8c3d4e02';
export const PACT_LOCATION = '5b0f3c1e-8a3e-4f7a-9d1a-6f2b8c3d4e03';
/** The incident of the file service's states: its token alone scopes uploads, so any uuid will do. */
export const PACT_INCIDENT = '5b0f3c1e-8a3e-4f7a-9d1a-6f2b8c3d4e04';
export const PACT_COMPANY_ID = '5b0f3c1e-8a3e-4f7a-9d1a-6f2b8c3d4e05';
