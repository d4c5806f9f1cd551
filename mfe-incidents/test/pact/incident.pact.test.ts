/**
 * @jest-environment node
 */
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import {
  addCaseNote,
  createApiClient,
  getCase,
  getReporting,
  isApiError,
  listCaseMessages,
  listCaseNotes,
  listCases,
  sendStaffMessage,
  updateCase,
} from '@whistle/api-client';
import { CASE_STATE, EXAMPLE_CASE, EXAMPLE_TOKEN, PACT_DIR, REPORTING_STATE, REVIEWER_STATE } from './fixtures';

const { boolean, datetime, eachLike, fromProviderState, integer, like, regex, string, uuid } = MatchersV3;

/**
 * What the staff case pages expect of the incident service; verified in services/incident/test/pact. The
 * state answers `staffToken` (an admin's access token) and `incidentUuid` (a case of their company, reported
 * under one top-level label, so every `parent_uuid` is null).
 */
const pact = new PactV4({
  consumer: 'whistle-mfe-incidents',
  provider: 'whistle-incident',
  dir: PACT_DIR,
  logLevel: 'warn',
});

const versioned = (example: string) => regex(/^v[12]\.[A-Za-z0-9_.-]+$/, example);
const timestamp = (example: string) => datetime("yyyy-MM-dd'T'HH:mm:ss.SSSXXX", example);
const bearer = { Authorization: fromProviderState('Bearer ${staffToken}', `Bearer ${EXAMPLE_TOKEN}`) };
const casePath = (suffix = '') =>
  fromProviderState(`/api/incident/\${incidentUuid}${suffix}`, `/api/incident/${EXAMPLE_CASE}${suffix}`);
const clock = {
  due_at: timestamp('2026-12-01T10:00:00.000Z'),
  done_at: like(null),
  state: regex(/^(done|due|due_soon|overdue)$/, 'due'),
};
const listItem = {
  uuid: uuid(EXAMPLE_CASE),
  display_report_number: integer(1),
  status: { name: string('NEW') },
  outcome: like(null),
  report_channel: string('online'),
  report_anonymously: boolean(true),
  created: timestamp('2026-11-20T09:30:00.000Z'),
  updated: timestamp('2026-11-20T09:30:00.000Z'),
  last_activity_at: timestamp('2026-11-20T09:30:00.000Z'),
  location: { uuid: uuid(), name: string('Head office') },
  management_categories: eachLike({ uuid: uuid(), name: string('Fraud'), parent_uuid: like(null) }),
  assignees: like([]),
  clocks: { acknowledgement: clock, feedback: clock, resolution: clock },
  full_name: like(null),
  keys: {
    credential: { public_key: versioned('v1.AAAA'), aes_encrypted_private_key: versioned('v1.BBBB') },
    aes_salt: string('c2FsdHNhbHRzYWx0c2FsdA'),
    aes_iv: string('aXZpdml2aXZpdml2'),
    company_encrypted_passphrase: versioned('v1.CCCC'),
  },
};
const staffView = {
  ...listItem,
  fields: eachLike({ name: string('description'), value: versioned('v2.DDDD') }),
  status_history: like([]),
  excluded_users: like([]),
  linked_cases: like([]),
  permissions: {
    update_status: boolean(true),
    reply: boolean(true),
    add_note: boolean(true),
    assign: boolean(true),
    exclude: boolean(true),
    change_categories: boolean(true),
  },
  file_token: string(EXAMPLE_TOKEN),
  file_token_expires_at: timestamp('2026-12-01T10:00:00.000Z'),
};
const client = (url: string) => createApiClient({ baseUrl: url, getToken: () => EXAMPLE_TOKEN });
const CIPHERTEXT = 'v2.AQID.BAUG';

describe('mfe-incidents → incident', () => {
  test('when an admin lists the cases, then a page of them comes with its total', async () => {
    await pact
      .addInteraction()
      .given(CASE_STATE)
      .uponReceiving('a staff list of cases')
      .withRequest('GET', '/api/incident/', (request) => request.headers({ Accept: 'application/json', ...bearer }))
      .willRespondWith(200, (response) =>
        response.jsonBody({
          count: integer(1),
          count_capped: boolean(false),
          page: integer(1),
          page_size: integer(20),
          results: eachLike(listItem),
        }),
      )
      .executeTest(async (server) => {
        const page = await listCases(client(server.url), {});
        expect(page.results[0]!.keys.credential.public_key).toBe('v1.AAAA');
      });
  });

  test('when an admin opens a case, then the whole case comes, encrypted, with a file token', async () => {
    await pact
      .addInteraction()
      .given(CASE_STATE)
      .uponReceiving('a staff view of a case')
      .withRequest('GET', casePath(), (request) => request.headers({ Accept: 'application/json', ...bearer }))
      .willRespondWith(200, (response) => response.jsonBody(staffView))
      .executeTest(async (server) => {
        const opened = await getCase(client(server.url), EXAMPLE_CASE);
        expect(opened.file_token).toBe(EXAMPLE_TOKEN);
      });
  });

  test('when a case another company or nobody has is opened, then 404 says only that it is not found', async () => {
    const unknown = '7a1c5d1a-0000-4000-8000-000000000000';
    await pact
      .addInteraction()
      .given(CASE_STATE)
      .uponReceiving('a staff view of an unknown case')
      .withRequest('GET', `/api/incident/${unknown}`, (request) =>
        request.headers({ Accept: 'application/json', ...bearer }),
      )
      .willRespondWith(404, (response) => response.jsonBody({ message: 'Incident not found' }))
      .executeTest(async (server) => {
        const failure = await getCase(client(server.url), unknown).catch((error: unknown) => error);
        expect(isApiError(failure) && failure.status).toBe(404);
      });
  });

  test('when an admin acknowledges a case, then the case comes back acknowledged', async () => {
    await pact
      .addInteraction()
      .given(CASE_STATE)
      .uponReceiving('a status move to ACKNOWLEDGED')
      .withRequest('PUT', casePath('/'), (request) =>
        request
          .headers({ Accept: 'application/json', 'Content-Type': 'application/json', ...bearer })
          .jsonBody({ status: 'ACKNOWLEDGED' }),
      )
      .willRespondWith(200, (response) =>
        response.jsonBody({
          ...staffView,
          status: { name: 'ACKNOWLEDGED' },
          clocks: {
            ...staffView.clocks,
            acknowledgement: {
              due_at: timestamp('2026-12-01T10:00:00.000Z'),
              done_at: timestamp('2026-11-24T10:00:00.000Z'),
              state: 'done',
            },
          },
        }),
      )
      .executeTest(async (server) => {
        expect((await updateCase(client(server.url), EXAMPLE_CASE, { status: 'ACKNOWLEDGED' })).status.name).toBe(
          'ACKNOWLEDGED',
        );
      });
  });

  test('when an admin replies as feedback, then the reply comes back from staff', async () => {
    await pact
      .addInteraction()
      .given(CASE_STATE)
      .uponReceiving('a staff reply marked as feedback')
      .withRequest('POST', '/api/incident/message/', (request) =>
        request.headers({ Accept: 'application/json', 'Content-Type': 'application/json', ...bearer }).jsonBody({
          incident_uuid: fromProviderState('${incidentUuid}', EXAMPLE_CASE),
          content: CIPHERTEXT,
          feedback: true,
        }),
      )
      .willRespondWith(201, (response) =>
        response.jsonBody({
          uuid: uuid(),
          incident_uuid: uuid(EXAMPLE_CASE),
          content: string(CIPHERTEXT),
          created: timestamp('2026-11-20T09:30:00.000Z'),
          sender: { name: string('Ada Lovelace'), source: 'STAFF' },
          feedback: true,
        }),
      )
      .executeTest(async (server) => {
        const sent = await sendStaffMessage(client(server.url), {
          incident_uuid: EXAMPLE_CASE,
          content: CIPHERTEXT,
          feedback: true,
        });
        expect(sent.sender.source).toBe('STAFF');
      });
  });

  test('when the thread and the notes are read, then each comes as a list', async () => {
    await pact
      .addInteraction()
      .given(CASE_STATE)
      .uponReceiving('the thread of a case, for staff')
      .withRequest('GET', casePath('/message'), (request) => request.headers({ Accept: 'application/json', ...bearer }))
      .willRespondWith(200, (response) => response.jsonBody(like([])))
      .executeTest(async (server) => {
        expect(Array.isArray(await listCaseMessages(client(server.url), EXAMPLE_CASE))).toBe(true);
      });
    await pact
      .addInteraction()
      .given(CASE_STATE)
      .uponReceiving('the private notes of a case')
      .withRequest('GET', casePath('/note'), (request) => request.headers({ Accept: 'application/json', ...bearer }))
      .willRespondWith(200, (response) => response.jsonBody(like([])))
      .executeTest(async (server) => {
        expect(await listCaseNotes(client(server.url), EXAMPLE_CASE)).toEqual([]);
      });
  });

  test('when an admin adds a private note, then the note comes back with its author', async () => {
    await pact
      .addInteraction()
      .given(CASE_STATE)
      .uponReceiving('a private note')
      .withRequest('POST', '/api/incident/note/', (request) =>
        request
          .headers({ Accept: 'application/json', 'Content-Type': 'application/json', ...bearer })
          .jsonBody({ incident_uuid: fromProviderState('${incidentUuid}', EXAMPLE_CASE), content: CIPHERTEXT }),
      )
      .willRespondWith(201, (response) =>
        response.jsonBody({
          uuid: uuid(),
          incident_uuid: uuid(EXAMPLE_CASE),
          content: string(CIPHERTEXT),
          created: timestamp('2026-11-20T09:30:00.000Z'),
          author: { uuid: uuid(), full_name: string('Ada Lovelace') },
        }),
      )
      .executeTest(async (server) => {
        expect(
          (await addCaseNote(client(server.url), { incident_uuid: EXAMPLE_CASE, content: CIPHERTEXT })).content,
        ).toBe(CIPHERTEXT);
      });
  });

  describe('reporting', () => {
    const day = (example: string) => regex(/^\d{4}-\d{2}-\d{2}$/, example);
    const count = (example: number) => integer(example);
    const median = { median_days: like(null), cases: count(0) };
    const share = { met: count(0), counted: count(0), share: like(null) };
    // The provider's "today" is the period, so the case reported in the state is in it whatever the date.
    const period = {
      from: fromProviderState('${from}', '2026-11-25'),
      to: fromProviderState('${to}', '2026-11-25'),
    };

    test('when an admin asks for a period, then the figures come counted by month and channel, label, place, status and outcome', async () => {
      await pact
        .addInteraction()
        .given(REPORTING_STATE)
        .uponReceiving('the reporting figures of a period')
        .withRequest('GET', '/api/incident/reporting', (request) =>
          request.query(period).headers({ Accept: 'application/json', ...bearer }),
        )
        .willRespondWith(200, (response) =>
          response.jsonBody({
            period: { from: day('2026-11-25'), to: day('2026-11-25') },
            total: count(1),
            by_month: eachLike({
              month: regex(/^\d{4}-\d{2}$/, '2026-11'),
              channels: { online: count(1), telephone: count(0), internal: count(0) },
            }),
            by_category: eachLike({ uuid: uuid(), name: string('Fraud'), count: count(1) }),
            by_location: eachLike({ uuid: uuid(), name: string('Head office'), count: count(1) }),
            by_status: eachLike({
              status: regex(/^(NEW|ACKNOWLEDGED|ASSESSMENT|INVESTIGATION|CLOSED|REOPENED)$/, 'NEW'),
              count: count(1),
            }),
            by_outcome: eachLike({
              outcome: regex(
                /^(substantiated|unsubstantiated|inconclusive|referred|out_of_scope|spam|withdrawn)$/,
                'spam',
              ),
              count: count(0),
            }),
            times: { to_acknowledge: median, to_first_feedback: median, to_close: median },
            directive: { acknowledged_within_7_days: share, feedback_within_3_months: share },
            now: { open: count(1), overdue: count(0), at: timestamp('2026-11-25T10:00:00.000Z') },
          }),
        )
        .executeTest(async (server) => {
          const report = await getReporting(client(server.url), { from: '2026-11-25', to: '2026-11-25' });
          expect(report.by_month[0]!.channels.online).toBe(1);
          expect(report.by_category[0]!.name).toBe('Fraud');
        });
    });

    test('when a reviewer asks for the figures, then 403', async () => {
      await pact
        .addInteraction()
        .given(REVIEWER_STATE)
        .uponReceiving('the reporting figures asked by a reviewer')
        .withRequest('GET', '/api/incident/reporting', (request) =>
          request.query({ from: '2026-01-01', to: '2026-12-31' }).headers({ Accept: 'application/json', ...bearer }),
        )
        .willRespondWith(403, (response) => response.jsonBody({ message: string('Reporting is for admins') }))
        .executeTest(async (server) => {
          const failure = await getReporting(client(server.url), { from: '2026-01-01', to: '2026-12-31' }).catch(
            (error: unknown) => error,
          );
          expect(isApiError(failure) && failure.status).toBe(403);
        });
    });
  });
});
