/**
 * @jest-environment node
 */
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { createApiClient, listAuditLog, verifyAuditLog, type ApiError } from '@whistle/api-client';
import { auditLogResponseSchema, auditVerificationSchema } from '@whistle/contracts';
import { AUDIT_ADMIN, AUDIT_LOG_STATE, EXAMPLE_TOKEN, PACT_DIR } from './audit-fixtures';

const { boolean, datetime, eachLike, fromProviderState, integer, like, uuid } = MatchersV3;

/**
 * What the audit log page expects of the audit service; verified in services/audit/test/pact, whose state
 * records the admin's sign-ins and answers `staffToken`.
 */
const pact = new PactV4({
  consumer: 'whistle-mfe-settings',
  provider: 'whistle-audit',
  dir: PACT_DIR,
  logLevel: 'warn',
});

const headers = {
  Accept: 'application/json',
  Authorization: fromProviderState('Bearer ${staffToken}', `Bearer ${EXAMPLE_TOKEN}`),
};
const api = (url: string) => createApiClient({ baseUrl: url, getToken: () => EXAMPLE_TOKEN });
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: ApiError) => error,
  );
/** The page's filters as its URL holds them: object type, action, member and period. */
const filters = {
  table_identifiers: 'user_profile',
  action: 'login-succeeded',
  user: AUDIT_ADMIN.uuid,
  from: '2020-01-01',
  to: '2099-12-31',
};

describe('mfe-settings → audit', () => {
  test('when an admin filters the log by object type, action, member and period, then the matching entries come back a page at a time', async () => {
    await pact
      .addInteraction()
      .given(AUDIT_LOG_STATE)
      .uponReceiving('a filtered page of the audit log')
      .withRequest('GET', '/api/account/company/audit_log/', (request) => request.headers(headers).query(filters))
      .willRespondWith(200, (response) =>
        response.jsonBody({
          count: integer(2),
          page: 1,
          page_size: 50,
          results: eachLike({
            uuid: uuid(),
            action: 'login-succeeded',
            success: true,
            table_identifier: 'user_profile',
            object_uuid: AUDIT_ADMIN.uuid,
            incident_uuid: null,
            actor: { type: 'STAFF', uuid: AUDIT_ADMIN.uuid, name: AUDIT_ADMIN.fullName },
            occurred_at: datetime("yyyy-MM-dd'T'HH:mm:ss.SSSXXX", '2026-11-20T09:30:00.000Z'),
          }),
        }),
      )
      .executeTest(async (server) => {
        const log = auditLogResponseSchema.parse(await listAuditLog(api(server.url), filters));
        expect(log.results[0]?.actor.name).toBe(AUDIT_ADMIN.fullName);
      });
  });

  test('when the period ends before it starts, then the field error comes back for the page to show by the field', async () => {
    await pact
      .addInteraction()
      .given(AUDIT_LOG_STATE)
      .uponReceiving('an audit log page whose period ends before it starts')
      .withRequest('GET', '/api/account/company/audit_log/', (request) =>
        request.headers(headers).query({ from: '2026-12-01', to: '2026-11-01' }),
      )
      .willRespondWith(400, (response) =>
        response.jsonBody({
          message: like('Invalid query parameters'),
          errors: { to: eachLike('The period ends before it starts') },
        }),
      )
      .executeTest(async (server) => {
        const error = await failure(listAuditLog(api(server.url), { from: '2026-12-01', to: '2026-11-01' }));
        expect(error?.status).toBe(400);
        expect(error?.body).toMatchObject({ errors: { to: ['The period ends before it starts'] } });
      });
  });

  test('when an admin verifies the log, then the result of the chain check comes back', async () => {
    await pact
      .addInteraction()
      .given(AUDIT_LOG_STATE)
      .uponReceiving('a check of the audit log chain')
      .withRequest('GET', '/api/account/company/audit_log/verify', (request) => request.headers(headers))
      .willRespondWith(200, (response) =>
        response.jsonBody({
          intact: boolean(true),
          checked: integer(3),
          first_broken: null,
          truncated: boolean(false),
        }),
      )
      .executeTest(async (server) => {
        expect(auditVerificationSchema.parse(await verifyAuditLog(api(server.url))).intact).toBe(true);
      });
  });
});
