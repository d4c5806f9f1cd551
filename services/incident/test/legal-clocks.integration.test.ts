import { ACKNOWLEDGEMENT_DAYS, FEEDBACK_MONTHS } from '@whistle/contracts';
import { encryptContent } from '@whistle/crypto';
import { createTestDependencies, testStacks, type TestDependencies } from '@whistle/service-kit/testing';
import {
  announceStaff,
  call,
  fileReport,
  prepareProducer,
  reportFor,
  seedCompany,
  startIncident,
  type RunningIncident,
  type SeededCompany,
  type StaffMember,
} from './support';

/** Not the default (14): the resolution clock follows the company's setting. */
const RESOLUTION_DEADLINE_DAYS = 30;

/*
 * A case's due times are the contracts' lengths (ACKNOWLEDGEMENT_DAYS, FEEDBACK_MONTHS) and the company's
 * deadline, added by the database to the moment each clock starts: the expected times are computed by the
 * same engine from the constants, so month lengths and the session's time zone count alike on both sides.
 */
describe.each(testStacks)('the legal clocks on %s', (stack) => {
  let test$: TestDependencies;
  let incident: RunningIncident;
  let company: SeededCompany;
  let handler: StaffMember;

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['incident']);
    await prepareProducer(test$.deps);
    incident = await startIncident(test$.deps);
    company = await seedCompany(test$.deps);
    handler = await announceStaff(test$.deps, company, 'Hal Handler', ['ADMIN']);
    await test$.deps.db.query('update incident.company set resolution_deadline_days = $2 where id = $1', [
      company.companyId,
      RESOLUTION_DEADLINE_DAYS,
    ]);
  });
  afterAll(async () => {
    await incident?.close();
    await test$?.dispose();
  });

  /** The case's due times, and the ones its clocks' start times and the constants call for. */
  async function dueTimes(incidentId: string) {
    const { rows } = await test$.deps.db.query<Record<string, Date>>(
      `select acknowledgement_due_at, feedback_due_at, resolution_due_at,
              created_at + make_interval(days => $2) as acknowledgement_expected,
              coalesce(acknowledged_at, created_at + make_interval(days => $2))
                + make_interval(months => $3) as feedback_expected,
              coalesce(reopened_at, created_at) + make_interval(days => $4) as resolution_expected
         from incident.incident where id = $1`,
      [incidentId, ACKNOWLEDGEMENT_DAYS, FEEDBACK_MONTHS, RESOLUTION_DEADLINE_DAYS],
    );
    const row = rows[0]!;
    return {
      actual: [row.acknowledgement_due_at, row.feedback_due_at, row.resolution_due_at],
      expected: [row.acknowledgement_expected, row.feedback_expected, row.resolution_expected],
    };
  }

  const move = async (incidentId: string, body: Record<string, unknown>) => {
    const answer = await call(incident.baseUrl, 'PUT', `/api/incident/${incidentId}/`, {
      token: await handler.token(),
      body,
    });
    expect(answer.status).toBe(200);
    return answer.body;
  };

  test('when a case is received, acknowledged, closed and reopened, then each due time is its constant from the clock’s start', async () => {
    const filed = await reportFor(company, { description: 'Invoices without delivery' });
    const { uuid: id } = await fileReport(incident.baseUrl, filed.body);
    const received = await dueTimes(id);
    expect(received.actual).toEqual(received.expected);

    const acknowledged = await move(id, { status: 'ACKNOWLEDGED' });
    const afterAcknowledgement = await dueTimes(id);
    expect(afterAcknowledgement.actual).toEqual(afterAcknowledgement.expected);
    // Acknowledging starts feedback afresh: no longer counted from the acknowledgement's due time.
    expect(afterAcknowledgement.actual[1]).not.toEqual(received.actual[1]);
    expect(acknowledged.clocks.feedback.due_at).toBe(afterAcknowledgement.expected[1]!.toISOString());

    const publicKey = filed.credentials.incident.publicKey;
    await move(id, {
      status: 'CLOSED',
      outcome: 'substantiated',
      motivation: await encryptContent(publicKey, 'Proven', { kind: 'motivation' }),
      final_message: await encryptContent(publicKey, 'Your report was confirmed', { kind: 'message', from: 'staff' }),
    });
    expect((await dueTimes(id)).actual).toEqual(afterAcknowledgement.actual);

    const reopened = await move(id, {
      status: 'REOPENED',
      motivation: await encryptContent(publicKey, 'New facts', { kind: 'motivation' }),
    });
    const afterReopening = await dueTimes(id);
    expect(afterReopening.actual).toEqual(afterReopening.expected);
    expect(afterReopening.actual[1]).toEqual(afterAcknowledgement.actual[1]);
    expect(reopened.clocks.resolution).toEqual({
      due_at: afterReopening.expected[2]!.toISOString(),
      done_at: null,
      state: 'due',
    });
  });
});
