import { createTestDependencies, type TestDependencies } from '@whistle/service-kit/testing';
import { verifyProviderPact } from '@whistle/test-support';
import { announceStaff, prepareProducer, seedCompany, startIncident, type RunningIncident } from '../support';
import { RETENTION_ADMIN_STATE, RETENTION_REVIEWER_STATE } from '../../../../mfe-settings/test/pact/retention-fixtures';

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

test("when the data retention page's pact is replayed against incident, then every interaction is honoured", async () => {
  await verifyProviderPact({
    consumer: 'whistle-mfe-settings',
    provider: 'whistle-incident',
    baseUrl: incident.baseUrl,
    stateHandlers: { [RETENTION_ADMIN_STATE]: memberOf('ADMIN'), [RETENTION_REVIEWER_STATE]: memberOf('REVIEWER') },
  });
});
