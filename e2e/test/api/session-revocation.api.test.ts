import { randomUUID } from 'node:crypto';
import { createRecordingMailer } from '@whistle/mailer/testing';
import { createTestDependencies, testStacks, waitFor, type TestDependencies } from '@whistle/service-kit/testing';
import { fetchCall, newPasswordCredentials, passwordChangeBody } from '@whistle/test-support';
import {
  ADMIN_PASSWORD,
  companyPayload,
  onboardAndConfirm,
  postJson,
  recordingMailbox,
} from '../../src/company-fixtures';
import { passwordTokenIn } from '../../src/mailbox';
import { publicView, reportBody } from '../../src/reports';
import { apiToken, invite, STAFF_PASSWORD } from '../../src/staff';
import { startInProcessPlatform, type InProcessPlatform } from '../../src/in-process-platform';

/**
 * A password or role change ends a staff member's sessions in every service at once: auth announces it
 * (user.sessions_revoked) and incident, file and audit refuse the old tokens as soon as they consume the event,
 * not when the tokens expire 15 minutes later. Every service composed in one process, on each test stack.
 */
describe.each(testStacks)('sessions ended by a password or role change on %s', (stack) => {
  let test$: TestDependencies;
  let running: InProcessPlatform;
  let baseUrl: string;
  const mailer = createRecordingMailer();

  beforeAll(async () => {
    test$ = await createTestDependencies(stack, ['incident', 'audit', 'notification', 'file']);
    running = await startInProcessPlatform(test$, { mailer });
    baseUrl = running.baseUrl;
  });
  afterAll(async () => {
    await running?.stop();
    await test$?.dispose();
  });

  const call = async (token: string, method: string, url: string, body?: unknown) =>
    (
      await fetch(`${baseUrl}${url}`, {
        method,
        headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    ).status;

  test('when an admin changes their password, then their older staff and file tokens are refused by incident, file and audit, and the new token works', async () => {
    const payload = await companyPayload();
    const urlIdentifier = await onboardAndConfirm({ baseUrl, mailbox: recordingMailbox(mailer.sent) }, payload);
    const signIn = await postJson(baseUrl, '/api/account/token', {
      username: payload.user_profile.email,
      password: payload.user_profile.password,
    });
    const { token: old } = (await signIn.json()) as { token: string };
    // A case, so that the incident service hands out a staff file token for it.
    const view = await waitFor(() => publicView(baseUrl, urlIdentifier).catch(() => undefined), {
      what: 'the company open to reports',
    });
    const report = await waitFor(
      async () => {
        const response = await postJson(baseUrl, '/api/incident/', await reportBody(view));
        return response.status === 201 ? response : undefined;
      },
      { what: 'a report accepted' },
    );
    expect(report.status).toBe(201);
    const incidentId = await waitFor(
      async () => {
        const response = await fetch(`${baseUrl}/api/incident/?page_size=1`, {
          headers: { authorization: `Bearer ${old}`, accept: 'application/json' },
        });
        const page = (await response.json()) as { results?: Array<{ uuid: string }> };
        return page.results?.[0]?.uuid;
      },
      { what: 'the case in the list' },
    );
    const caseView = await fetch(`${baseUrl}/api/incident/${incidentId}`, {
      headers: { authorization: `Bearer ${old}`, accept: 'application/json' },
    });
    const { file_token: fileToken } = (await caseView.json()) as { file_token: string };
    // An unknown file is a 404 to a valid token, a 401 to a refused one.
    const unknownFile = `/api/incident/file/${randomUUID()}`;
    expect(await call(old, 'GET', '/api/incident/?page_size=1')).toBe(200);
    expect(await call(old, 'GET', '/api/account/company/audit_log/')).toBe(200);
    expect(await call(fileToken, 'GET', unknownFile)).toBe(404);

    // Tokens carry their issue time in whole seconds, and the new token is issued in the second of the change: a
    // token from that same second cannot be told apart from it and stays valid. The old one must be older.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const changed = await fetch(`${baseUrl}/api/account/profile`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${old}`, accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify(
        await passwordChangeBody(fetchCall(baseUrl), old, ADMIN_PASSWORD, 'a brand new passphrase 42'),
      ),
    });
    expect(changed.status).toBe(200);
    const { token: fresh } = (await changed.json()) as { token: string };

    await waitFor(
      async () =>
        (await call(old, 'GET', '/api/incident/?page_size=1')) === 401 &&
        (await call(old, 'GET', '/api/account/company/audit_log/')) === 401 &&
        (await call(fileToken, 'GET', unknownFile)) === 401,
      { what: 'the old tokens refused by incident, audit and file' },
    );
    expect(await call(old, 'GET', '/api/account/company/')).toBe(401);
    expect(await call(fresh, 'GET', '/api/incident/?page_size=1')).toBe(200);
    expect(await call(fresh, 'GET', '/api/account/company/audit_log/')).toBe(200);
  });

  test('when an admin takes the ADMIN role from a second admin, then that person’s older token is refused by incident and audit at once, and a new sign-in has only the new role', async () => {
    const payload = await companyPayload();
    await onboardAndConfirm({ baseUrl, mailbox: recordingMailbox(mailer.sent) }, payload);
    const adminToken = await apiToken(baseUrl, payload.user_profile.email, ADMIN_PASSWORD);
    const email = `grace-${randomUUID()}@${payload.user_profile.email.split('@')[1]}`;
    await invite(baseUrl, adminToken, { email, full_name: 'Grace Hopper', roles: ['ADMIN'] });
    const invitation = await waitFor(
      () => mailer.sent.find((mail) => mail.to === email && /invited/.test(mail.subject)),
      { what: 'the invitation mail' },
    );
    const chosen = await fetch(`${baseUrl}/api/account/profile`, {
      method: 'PUT',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        authorization: `Bearer ${passwordTokenIn(invitation)}`,
      },
      body: JSON.stringify((await newPasswordCredentials(STAFF_PASSWORD)).body),
    });
    expect(chosen.status).toBe(204);
    const old = await apiToken(baseUrl, email);
    expect(await call(old, 'GET', '/api/incident/?page_size=1')).toBe(200);
    expect(await call(old, 'GET', '/api/account/company/audit_log/')).toBe(200);
    const own = await fetch(`${baseUrl}/api/account/company/profile/`, {
      headers: { authorization: `Bearer ${old}`, accept: 'application/json' },
    });
    const { uuid } = (await own.json()) as { uuid: string };

    // As above: the old token must be issued in an earlier second than the change.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await call(adminToken, 'PUT', '/api/account/company/user_profile/', { uuid, roles: ['HANDLER'] })).toBe(200);

    await waitFor(
      async () =>
        (await call(old, 'GET', '/api/incident/?page_size=1')) === 401 &&
        (await call(old, 'GET', '/api/account/company/audit_log/')) === 401,
      { what: 'the old token refused by incident and audit' },
    );
    const fresh = await apiToken(baseUrl, email);
    expect(await call(fresh, 'GET', '/api/incident/?page_size=1')).toBe(200);
    expect(await call(fresh, 'GET', '/api/account/company/audit_log/')).toBe(403);
  });
});
