import { createTestDependencies, type TestDependencies } from '@whistle/service-kit/testing';
import { PACT_VERIFICATION_TIMEOUT_MS, verifyProviderPact } from '@whistle/test-support';
import {
  announceStaff,
  postJson,
  prepareProducer,
  reportFor,
  seedCompany,
  startIncident,
  type RunningIncident,
} from '../support';
import {
  CASE_STATE,
  RECORD_STATE,
  REPORTING_STATE,
  REVIEWER_STATE,
  SAVED_VIEW_STATE,
} from '../../../../mfe-incidents/test/pact/fixtures';

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

/** A company with an admin and a case of theirs, made through the same paths as in production. */
async function adminWithCase(): Promise<{ staffToken: string; incidentUuid: string }> {
  const company = await seedCompany(test$.deps);
  const admin = await announceStaff(test$.deps, company, 'Ada Lovelace', ['ADMIN']);
  // One top-level label: the pact's categories have no parent.
  const report = await reportFor(company, undefined, { category_uuids: [company.categories.fraud] });
  const created = await postJson(`${incident.baseUrl}/api/incident/`, report.body);
  if (created.status !== 201) throw new Error(`report refused: ${created.status}`);
  const { uuid } = (await created.json()) as { uuid: string };
  return { staffToken: await admin.token(), incidentUuid: uuid };
}

/** The admin's case above, and the period of today (UTC) in which it was reported. */
async function adminWithCaseToday(): Promise<{ staffToken: string; incidentUuid: string; from: string; to: string }> {
  const today = new Date().toISOString().slice(0, 10);
  return { ...(await adminWithCase()), from: today, to: today };
}

async function reviewer(): Promise<{ staffToken: string }> {
  const company = await seedCompany(test$.deps);
  return { staffToken: await (await announceStaff(test$.deps, company, 'Rita Reviewer', ['REVIEWER'])).token() };
}

/** An admin with a saved view of theirs: new cases, soonest deadline first (made through the route, as the page does). */
async function adminWithSavedView(): Promise<{ staffToken: string; viewUuid: string }> {
  const company = await seedCompany(test$.deps);
  const staffToken = await (await announceStaff(test$.deps, company, 'Ada Lovelace', ['ADMIN'])).token();
  const saved = await postJson(
    `${incident.baseUrl}/api/incident/saved-view/`,
    { name: 'New cases', filters: { status: ['NEW'], sort: 'next_due_at' } },
    { authorization: `Bearer ${staffToken}` },
  );
  if (saved.status !== 201) throw new Error(`saved view refused: ${saved.status}`);
  return { staffToken, viewUuid: ((await saved.json()) as { uuid: string }).uuid };
}

/** A handler of a company, and what a record of a report to that company names. */
async function handlerTakingAReport() {
  const company = await seedCompany(test$.deps);
  const handler = await announceStaff(test$.deps, company, 'Hal Handler', ['HANDLER']);
  return {
    staffToken: await handler.token(),
    urlIdentifier: company.urlIdentifier,
    categoryUuid: company.categories.fraud,
    locationUuid: company.locations.office,
  };
}

test(
  "when the staff case pages' pact is replayed against incident, then every interaction is honoured",
  async () => {
    await verifyProviderPact({
      consumer: 'whistle-mfe-incidents',
      provider: 'whistle-incident',
      baseUrl: incident.baseUrl,
      stateHandlers: {
        [CASE_STATE]: adminWithCase,
        [REPORTING_STATE]: adminWithCaseToday,
        [REVIEWER_STATE]: reviewer,
        [SAVED_VIEW_STATE]: adminWithSavedView,
        [RECORD_STATE]: handlerTakingAReport,
      },
    });
  },
  PACT_VERIFICATION_TIMEOUT_MS,
);
