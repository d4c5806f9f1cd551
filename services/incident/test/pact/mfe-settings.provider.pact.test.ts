import { createTestDependencies, type TestDependencies } from '@whistle/service-kit/testing';
import { PACT_VERIFICATION_TIMEOUT_MS, verifyProviderPact } from '@whistle/test-support';
import { createCompanyKeyPair } from '@whistle/crypto';
import { waitFor } from '@whistle/service-kit/testing';
import {
  announce,
  announceStaff,
  fileReport,
  prepareProducer,
  reportFor,
  seedCompany,
  startIncident,
  type RunningIncident,
} from '../support';
import {
  RETENTION_ADMIN_STATE,
  RETENTION_REVIEWER_STATE,
  ROTATION_DONE_STATE,
  ROTATION_STATE,
} from '../../../../mfe-settings/test/pact/retention-fixtures';

let test$: TestDependencies;
let incident: RunningIncident;

beforeAll(async () => {
  test$ = await createTestDependencies('pglite+in-process');
  await prepareProducer(test$.deps);
  incident = await startIncident(test$.deps);
});
afterAll(async () => {
  await incident?.close();
  await test$?.dispose();
});

/** A new company (its policy the default) and one member of it, announced by auth's events as in production. */
const memberOf = (role: 'ADMIN' | 'REVIEWER') => async () => {
  const company = await seedCompany(test$.deps);
  const member = await announceStaff(test$.deps, company, 'Ada Lovelace', [role]);
  return { staffToken: await member.token() };
};

/** A company rotating its key to version 2 (auth's event delivered), with `cases` reports still under version 1. */
const rotating = (cases: number) => async () => {
  const company = await seedCompany(test$.deps);
  const admin = await announceStaff(test$.deps, company, 'Ada Lovelace', ['ADMIN']);
  const uuids = [];
  for (let index = 0; index < cases; index += 1)
    uuids.push((await fileReport(incident.baseUrl, (await reportFor(company)).body)).uuid);
  const next = await createCompanyKeyPair();
  await announce(test$.deps, {
    name: 'company.key_rotation_started',
    company_id: company.companyId,
    payload: { key_version: 2, previous_key_version: 1, public_key: next.public_key, fingerprint: 'AAAA' },
  });
  await waitFor(
    async () =>
      (
        await test$.deps.db.query('select 1 from incident.company where id = $1 and key_version = 2', [
          company.companyId,
        ])
      ).rows.length > 0,
    { what: 'the rotation in the read model' },
  );
  return { staffToken: await admin.token(), caseUuid: uuids[0] ?? '' };
};

test(
  "when the settings pages' pact (data retention, company key rotation) is replayed against incident, then every interaction is honoured",
  async () => {
    await verifyProviderPact({
      consumer: 'whistle-mfe-settings',
      provider: 'whistle-incident',
      baseUrl: incident.baseUrl,
      stateHandlers: {
        [RETENTION_ADMIN_STATE]: memberOf('ADMIN'),
        [RETENTION_REVIEWER_STATE]: memberOf('REVIEWER'),
        [ROTATION_STATE]: rotating(1),
        [ROTATION_DONE_STATE]: rotating(0),
      },
    });
  },
  PACT_VERIFICATION_TIMEOUT_MS,
);
