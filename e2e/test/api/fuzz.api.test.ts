import { randomUUID } from 'node:crypto';
import type { Router } from 'express';
import fc from 'fast-check';
import { createIncidentCredentials, deriveDiscloserAuthToken, encryptReportFields } from '@whistle/crypto';
import { createRecordingMailer } from '@whistle/mailer/testing';
import { type Queryable } from '@whistle/service-kit';
import { createTestDependencies, waitFor, type TestDependencies } from '@whistle/service-kit/testing';
import { fetchCall, newPasswordCredentials, signInBody } from '@whistle/test-support';
import {
  ADMIN_PASSWORD,
  companyPayload,
  onboardAndConfirm,
  postJson,
  recordingMailbox,
} from '../../src/company-fixtures';
import { publicView } from '../../src/reports';
import { apiToken, invite } from '../../src/staff';
import { startInProcessPlatform, type InProcessPlatform } from '../../src/in-process-platform';

/** An HTTP route as a service's router declares it. */
interface RouteSpec {
  method: string;
  path: string;
}

/** Every route of an Express router, nested routers included (Express 5 keeps them in `stack`). */
function routesOf(router: Router): RouteSpec[] {
  type Layer = { route?: { path: string; methods: Record<string, boolean> }; handle: { stack?: Layer[] } };
  const walk = (stack: Layer[]): RouteSpec[] =>
    stack.flatMap((layer) => {
      if (layer.route)
        return Object.keys(layer.route.methods)
          .filter((method) => method !== '_all')
          .map((method) => ({ method: method.toUpperCase(), path: layer.route!.path }));
      return layer.handle.stack ? walk(layer.handle.stack) : [];
    });
  return walk((router as unknown as { stack: Layer[] }).stack);
}

/**
 * Routes that sign someone in or up, by what their body says (an e-mail and password, a code): no token decides
 * whose data they reach, so they are not swept with another company's token.
 */
const SIGN_IN =
  /^POST \/api\/account\/(token|token\/mfa|company|company\/sso\/(redirect|token|acs))$|^PUT \/api\/account\/profile\/password\/reset$/;

/**
 * Routes only an ADMIN may call (spec §6 and the settings pages): company settings, labels, locations, team, SSO, MFA
 * policy, reply templates, customisation and languages, the audit log, reporting and retention. Reading the company
 * and one's own profile is for all staff.
 */
const ADMIN_ONLY =
  /^(POST|PUT|DELETE) \/api\/account\/company\/(category|location|user_profile|reply_template|customization|languages$|sso$|mfa)|^PUT \/api\/account\/company$|^GET \/api\/account\/company\/(audit_log|sso$|customization$)|^(GET|PUT) \/api\/incident\/(reporting|retention)$/;

/**
 * Tables holding what people and cases are: a refused request must leave them exactly as they were. The
 * audit trail is not among them: recording attempts, refused ones included, is its job; nor the mail queue, which
 * the notification service empties on its own schedule (a notice queued by an earlier route goes out meanwhile),
 * nor the reporting figures, which the incident service's fold rewrites on its schedule.
 */
async function businessFingerprint(db: Queryable): Promise<string> {
  const { rows: tables } = await db.query<{ name: string }>(
    `select table_schema || '.' || table_name as name from information_schema.tables
      where table_schema in ('auth', 'incident', 'file', 'notification') and table_type = 'BASE TABLE'
        and table_name not in ('schema_migration', 'inbox', 'outbox', 'token_revocation', 'user_session_revocation',
                               'one_time_secret', 'saml_request', 'mail_queue', 'reporting_delta', 'reporting_summary')
      order by 1`,
  );
  const parts: string[] = [];
  for (const { name } of tables) {
    const { rows } = await db.query<{ digest: string | null }>(
      `select md5(string_agg(t::text, '|' order by t::text)) as digest from ${name} t`,
    );
    parts.push(`${name}:${rows[0]?.digest ?? ''}`);
  }
  return parts.join('\n');
}

/**
 * One company's rows in every business table: those with its `company_id` (its `id` in a company table), and those
 * of its cases by `incident_id`. Another company's admin, whatever they send, must leave it as it was. Left out with
 * the message tables: what the platform's own jobs rewrite on their schedule (the reporting summary's fold, the mail
 * queue's dispatch).
 */
async function companyFingerprint(db: Queryable, companyId: string): Promise<string> {
  const { rows: tables } = await db.query<{ name: string; scope: string }>(
    `select c.table_schema || '.' || c.table_name as name, c.column_name as scope
       from information_schema.columns c join information_schema.tables t using (table_schema, table_name)
      where c.table_schema in ('auth', 'incident', 'file', 'notification') and t.table_type = 'BASE TABLE'
        and (c.column_name in ('company_id', 'incident_id') or (c.table_name = 'company' and c.column_name = 'id'))
        and c.table_name not in ('inbox', 'outbox', 'token_revocation', 'one_time_secret', 'saml_request',
                                 'reporting_delta', 'reporting_summary', 'mail_queue')
      order by 1, 2`,
  );
  const parts: string[] = [];
  for (const { name, scope } of tables) {
    const mine =
      scope === 'incident_id'
        ? 'incident_id in (select id from incident.incident where company_id = $1)'
        : `${scope} = $1`;
    const { rows } = await db.query<{ digest: string | null }>(
      `select md5(string_agg(t::text, '|' order by t::text)) as digest from ${name} t where ${mine}`,
      [companyId],
    );
    parts.push(`${name} by ${scope}:${rows[0]?.digest ?? ''}`);
  }
  return parts.join('\n');
}

const nested = (depth: number): unknown => (depth === 0 ? 'bottom' : { a: [nested(depth - 1)] });

/** Values a hostile or careless client sends: wrong types, NUL, lone surrogates, huge and deep values. */
const hostileValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string().map((text) => `${text}\u0000`),
  fc.string().map((text) => `\ud800${text}`),
  fc.string().map((text) => `${text}\udfff`),
  fc.constant('x'.repeat(300_000)),
  fc.constant(nested(60)),
  fc.constantFrom(-1, 0, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 1.5, true, false, null, [], {}),
  fc.constantFrom(
    '',
    ' ',
    '../../etc/passwd',
    '<script>alert(1)</script>',
    "'; drop table x; --",
    '%00',
    'v1.',
    'v1.!!!',
  ),
);

/** Field names the API knows, so hostile values reach the validators rather than only unknown keys. */
const knownFields = [
  'username',
  'password',
  'current_password',
  'email',
  'full_name',
  'name',
  'country',
  'roles',
  'uuid',
  'challenge_code',
  'code',
  'url_identifier',
  'category_uuids',
  'location_uuid',
  'credential',
  'fields',
  'company_encrypted_passphrase',
  'discloser_encrypted_passphrase',
  'discloser_auth_token',
  'aes_salt',
  'aes_iv',
  'report_anonymously',
  'report_channel',
  'incident_uuid',
  'content',
  'text',
  'feedback',
  'status',
  'outcome',
  'motivation',
  'assignee_uuids',
  'excluded_user_uuids',
  'management_categories',
  'user_profiles',
  'settings',
  'enabled',
  'entry_point',
  'idp_certificate',
  'email_attribute',
  'mfa_required',
  'passphrase',
  'user_profile',
  'is_active',
  'parent_uuid',
  'title',
  'description',
  'logo',
];
/**
 * A well-formed body per route, so that one hostile field at a time reaches the code behind the schema
 * (a strict schema refuses an unknown key before anything else runs). Routes without one get the
 * generic fuzz only.
 */
function exampleBodies(context: {
  email: string;
  /** The admin's authentication secret, as the login page derives it: the example sign-in succeeds. */
  authSecret: string;
  urlIdentifier: string;
  incidentId: string;
  categoryId: string;
  locationId: string;
}) {
  const ciphertext = 'v1.AAAA.BBBB';
  return {
    'POST /api/account/token': { username: context.email, password: context.authSecret },
    'POST /api/account/token/mfa': { challenge_code: '123456' },
    'POST /api/account/company/confirmation': { token: 'not-a-link-token' },
    'PUT /api/account/profile': { full_name: 'Ada Lovelace' },
    'PUT /api/account/profile/notifications': {
      language: 'fr',
      notifications: { new_incidents: true, assigned_to_an_incident: false, incident_updates: true, deadlines: true },
    },
    'POST /api/account/company/user_profile': { email: 'new@example.com', full_name: 'New Person', roles: ['HANDLER'] },
    'DELETE /api/account/company/user_profile': { uuid: randomUUID() },
    'PUT /api/account/company/user_profile': { uuid: randomUUID(), roles: ['REVIEWER'] },
    'POST /api/account/company/user_profile/invitation': { uuid: randomUUID() },
    'PUT /api/account/company/mfa': { mfa_required: false },
    'PUT /api/account/company/sso': {
      enabled: false,
      entry_point: 'https://idp.example.com/sso',
      idp_certificate: 'MIIB',
      email_attribute: '',
      require_sso: false,
    },
    'PUT /api/account/company/customization': {
      title: 'Speak up',
      description: '<p><b>Bold</b> <a href="https://example.com">link</a></p>',
    },
    'PUT /api/account/company/languages': { offered: ['en', 'de'], default: 'de' },
    // A 1×1 PNG.
    'PUT /api/account/company/customization/logo': {
      content: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    },
    'PUT /api/account/company': { name: 'Globex', country: 'DE', settings: { resolution_deadline_days: 14 } },
    'POST /api/account/company/category': { name: 'Supply chain', management_categories: [{ name: 'Sanctions' }] },
    'PUT /api/account/company/category/:categoryId': {
      name: 'Supply chain',
      management_categories: [{ uuid: context.categoryId, name: 'Sanctions' }],
      user_profiles: [],
    },
    'POST /api/account/company/location': { name: 'Lyon plant' },
    'PUT /api/account/company/location/:locationId': { name: 'Lyon plant', is_active: true },
    'POST /api/account/company/sso/redirect': { email: context.email },
    'POST /api/account/company/sso/token': { code: 'abc' },
    'POST /api/incident': {
      url_identifier: context.urlIdentifier,
      category_uuids: [context.categoryId],
      location_uuid: context.locationId,
      report_anonymously: true,
      fields: [{ name: 'description', value: ciphertext }],
    },
    'POST /api/incident/message': { incident_uuid: context.incidentId, content: ciphertext },
    'POST /api/incident/note': { incident_uuid: context.incidentId, content: ciphertext },
    'PUT /api/incident/:incident_uuid': { status: 'ACKNOWLEDGED' },
  } as Record<string, Record<string, unknown>>;
}

/** An example body with one to three of its fields (or new ones) replaced by hostile values. */
const mutated = (example: Record<string, unknown>) =>
  fc
    .dictionary(fc.constantFrom(...Object.keys(example), ...knownFields), hostileValue, { minKeys: 1, maxKeys: 3 })
    .map((hostile) => ({ ...example, ...hostile }));

const hostileBody = fc.oneof(
  fc.dictionary(fc.constantFrom(...knownFields), hostileValue, { maxKeys: 6 }),
  fc.jsonValue({ maxDepth: 4 }),
  fc.dictionary(fc.string(), hostileValue, { maxKeys: 4 }),
);
const hostileQuery = fc.dictionary(
  fc.constantFrom('sort', 'page', 'page_size', 'status', 'category', 'url_identifier', 'retrieval_id', 'overdue', 'x'),
  fc.oneof(fc.string(), fc.constantFrom('%00', '\u0000', '\ud800', '-1', '1e9', 'true', '[]', 'x'.repeat(5000))),
  { maxKeys: 4 },
);

/**
 * Issue 11: every JSON endpoint of every service, fuzzed: whatever the body, query, path and credentials,
 * the answer is never a 5xx, an error is always JSON with a message, and a refused request changes no
 * business row. Routes are read from the services' routers, so a new endpoint is fuzzed without a change here.
 */
describe('fuzzing every endpoint of the platform (PGlite, in-process bus)', () => {
  const mailer = createRecordingMailer();
  let test$: TestDependencies;
  let running: InProcessPlatform;
  let baseUrl: string;

  beforeAll(async () => {
    test$ = await createTestDependencies('pglite+in-process');
    // Rate limits stay on, but each request comes from its own address (X-Forwarded-For behind one trusted hop), so
    // per-client limits do not stop the fuzz before the validators.
    running = await startInProcessPlatform(test$, { mailer, settings: { TRUST_PROXY: '1' } });
    baseUrl = running.baseUrl;
  });
  afterAll(async () => {
    await running?.stop();
    await test$?.dispose();
  });

  /** A company onboarded through the API with one anonymous report, and what the routes need of it. */
  async function companyWithReport() {
    const payload = await companyPayload();
    const url_identifier = await onboardAndConfirm({ baseUrl, mailbox: recordingMailbox(mailer.sent) }, payload);
    await waitFor(
      async () =>
        (await test$.deps.db.query('select 1 from incident.company where url_identifier = $1', [url_identifier])).rows
          .length > 0,
      { what: 'the company in the incident read model' },
    );
    const view = await publicView(baseUrl, url_identifier);
    const credentials = await createIncidentCredentials(view.public_key);
    const report = await postJson(baseUrl, '/api/incident/', {
      url_identifier,
      category_uuids: [view.categories[0]!.uuid],
      location_uuid: view.locations[0]!.uuid,
      ...credentials.payload,
      fields: await encryptReportFields(credentials.incident.publicKey, { description: 'fuzz target' }),
      report_anonymously: true,
    });
    const { uuid: incidentId, retrieval_id } = (await report.json()) as { uuid: string; retrieval_id: string };
    const opened = await fetch(
      `${baseUrl}/api/incident/discloser?${new URLSearchParams({ url_identifier, retrieval_id })}`,
      { headers: { authorization: `Bearer ${await deriveDiscloserAuthToken(credentials.discloserPassphrase)}` } },
    );
    const discloserToken = ((await opened.json()) as { token: string }).token;
    const examples = exampleBodies({
      email: payload.user_profile.email,
      authSecret: (await signInBody(fetchCall(baseUrl), payload.user_profile.email, ADMIN_PASSWORD)).password,
      urlIdentifier: url_identifier,
      incidentId,
      categoryId: view.categories[0]!.uuid,
      locationId: view.locations[0]!.uuid,
    });
    const companyId = (
      await test$.deps.db.query<{ id: string }>('select id from incident.company where url_identifier = $1', [
        url_identifier,
      ])
    ).rows[0]!.id;
    return { payload, url_identifier, view, incidentId, discloserToken, examples, companyId };
  }

  const routes = () => running.platform.services.flatMap((service) => routesOf(service.router));

  it('when any route gets hostile input with any credential, then it never answers 5xx, errors are JSON, and refusals change nothing', async () => {
    const { payload, url_identifier, incidentId, discloserToken, examples } = await companyWithReport();
    expect(routes().length).toBeGreaterThan(20);
    const pathValue = fc.constantFrom(
      incidentId,
      randomUUID(),
      url_identifier,
      'not-a-uuid',
      '..%2F..%2Fetc',
      '%00',
      '%F0%9F%90%B3',
      '%ED%A0%80',
      'x'.repeat(400),
    );
    const failures: string[] = [];
    let requests = 0;

    for (const route of routes()) {
      // Fresh credentials per route: a fuzzed logout or password change must not blind the next routes.
      const adminToken = await apiToken(baseUrl, payload.user_profile.email, ADMIN_PASSWORD);
      // noBias: each credential as often as the others (fast-check favours the first constants otherwise).
      const credential = fc.noBias(fc.constantFrom(adminToken, discloserToken, undefined, 'garbage', `${adminToken}x`));
      const before = await businessFingerprint(test$.deps.db);
      let anyAccepted = false;
      await fc.assert(
        fc.asyncProperty(
          examples[`${route.method} ${route.path}`]
            ? fc.oneof(mutated(examples[`${route.method} ${route.path}`]!), hostileBody)
            : hostileBody,
          hostileQuery,
          fc.noBias(pathValue),
          credential,
          fc.ipV4(),
          async (body, query, param, token, client) => {
            const url = `${baseUrl}${route.path.replace(/:[a-z_]+/g, param)}?${new URLSearchParams(
              query as Record<string, string>,
            )}`;
            const hasBody = route.method !== 'GET' && route.method !== 'HEAD';
            requests += 1;
            const response = await fetch(url, {
              method: route.method,
              headers: {
                accept: 'application/json',
                'x-forwarded-for': client,
                ...(hasBody ? { 'content-type': 'application/json' } : {}),
                ...(token ? { authorization: `Bearer ${token}` } : {}),
              },
              body: hasBody ? JSON.stringify(body) : undefined,
              redirect: 'manual',
            });
            const text = await response.text();
            if (response.status < 400) {
              anyAccepted = true;
              return true;
            }
            const where = `${route.method} ${route.path} → ${response.status}`;
            if (response.status >= 500)
              failures.push(`${where}: ${text.slice(0, 200)} for ${JSON.stringify(body).slice(0, 200)}`);
            else if (!/^application\/json/.test(response.headers.get('content-type') ?? ''))
              failures.push(`${where}: not JSON (${response.headers.get('content-type')})`);
            else if (typeof (JSON.parse(text) as { message?: unknown }).message !== 'string')
              failures.push(`${where}: no message`);
            return true;
          },
        ),
        { numRuns: 40, seed: 20261124 },
      );
      if (!anyAccepted) {
        const after = await businessFingerprint(test$.deps.db);
        if (after !== before) failures.push(`${route.method} ${route.path}: a refused request changed stored data`);
      }
    }
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(500);
  });
  /**
   * Issue 11 item 7c. Every route the services declare, called with this company's ids in its path and its example
   * body: by another company's admin (nothing of this company changes, no answer carries its case or admin, no
   * success on a path naming its case, labels or locations), and by this company's reviewer (every admin route 403).
   */
  it('when another company’s admin or a reviewer calls every route, then the company’s data is out of reach and every admin route answers 403', async () => {
    const a = await companyWithReport();
    const b = await companyWithReport();
    const adminA = await apiToken(baseUrl, a.payload.user_profile.email, ADMIN_PASSWORD);
    const reviewerEmail = `rita@${a.payload.user_profile.email.split('@')[1]}`;
    await invite(baseUrl, adminA, { email: reviewerEmail, full_name: 'Rita Reviewer', roles: ['REVIEWER'] });
    const invitation = await waitFor(() => mailer.sent.find((mail) => mail.to === reviewerEmail), {
      what: 'the invitation mail',
    });
    const linkToken = /\/company\/password\/change#token=([A-Za-z0-9_-]+)/.exec(invitation.text)?.[1];
    const reviewerPassword = 'reviewer sweeps every route';
    const passwordSet = await fetch(`${baseUrl}/api/account/profile`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${linkToken}` },
      body: JSON.stringify((await newPasswordCredentials(reviewerPassword)).body),
    });
    expect(passwordSet.status).toBe(204);

    const idsOfA: Record<string, string> = {
      categoryId: a.view.categories[0]!.uuid,
      locationId: a.view.locations[0]!.uuid,
      url_identifier: a.url_identifier,
    };
    const call = async (route: RouteSpec, token: string, client: string) => {
      const url = `${baseUrl}${route.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => idsOfA[name] ?? a.incidentId)}`;
      const hasBody = route.method !== 'GET' && route.method !== 'HEAD';
      const response = await fetch(url, {
        method: route.method,
        headers: {
          accept: 'application/json',
          'x-forwarded-for': client,
          authorization: `Bearer ${token}`,
          ...(hasBody ? { 'content-type': 'application/json' } : {}),
        },
        body: hasBody ? JSON.stringify(a.examples[`${route.method} ${route.path}`] ?? {}) : undefined,
        redirect: 'manual',
      });
      return { status: response.status, text: await response.text() };
    };

    const failures: string[] = [];
    // A's report and reviewer are still being told to the other services: measured once that has settled.
    let before = '';
    await waitFor(
      async () => {
        const now = await companyFingerprint(test$.deps.db, a.companyId);
        const settled = now === before;
        before = now;
        return settled;
      },
      { what: "company A's rows settled", intervalMs: 300 },
    );
    for (const [index, route] of routes().entries()) {
      const where = `${route.method} ${route.path}`;
      if (SIGN_IN.test(where)) continue;
      // A fresh token per route: a revocation or a password change among the routes must not blind the next ones.
      const adminB = await apiToken(baseUrl, b.payload.user_profile.email, ADMIN_PASSWORD);
      const foreign = await call(route, adminB, `198.51.100.${index % 250}`);
      if (foreign.status >= 500) failures.push(`${where} as B's admin → ${foreign.status}`);
      if (foreign.text.includes(a.incidentId) || foreign.text.includes(a.payload.user_profile.email))
        failures.push(`${where} as B's admin → ${foreign.status} carries A's case or admin`);
      if (/:(incident_uuid|file_uuid|categoryId|locationId)/.test(route.path) && foreign.status < 400)
        failures.push(`${where} as B's admin → ${foreign.status}`);
    }
    expect(failures).toEqual([]);
    expect(await companyFingerprint(test$.deps.db, a.companyId)).toBe(before);

    const reviewerStatus: Record<string, number> = {};
    for (const [index, route] of routes().entries()) {
      const reviewer = await apiToken(baseUrl, reviewerEmail, reviewerPassword);
      const own = await call(route, reviewer, `203.0.113.${index % 250}`);
      if (own.status >= 500) failures.push(`${route.method} ${route.path} as A's reviewer → ${own.status}`);
      reviewerStatus[`${route.method} ${route.path}`] = own.status;
    }
    expect(failures).toEqual([]);
    const adminOnly = Object.keys(reviewerStatus).filter((where) => ADMIN_ONLY.test(where));
    expect(adminOnly.length).toBeGreaterThan(15);
    expect(Object.fromEntries(adminOnly.map((where) => [where, reviewerStatus[where]]))).toEqual(
      Object.fromEntries(adminOnly.map((where) => [where, 403])),
    );
  });
});
