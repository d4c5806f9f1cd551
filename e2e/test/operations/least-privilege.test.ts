import amqplib from 'amqplib';
import pg from 'pg';
import { randomUUID } from 'node:crypto';
import { crossSchemaAttempts, waitFor } from '@whistle/service-kit/testing';
import { startCluster, type ClusterPlatform } from '../../src/cluster';
import { reportBody, publicView } from '../../src/reports';
import { apiToken, onboardCompany } from '../../src/staff';

/**
 * The cluster as docs/operations.md sets it up for production: each service with its own database login (owning
 * its schema, with its schema's tenant role only) and its own broker user (publishing its own events only). The
 * platform works end to end, and each credential is refused everything that is another service's.
 */
describe('cluster with a database login and a broker user per service', () => {
  let platform: ClusterPlatform;
  const services = ['auth', 'incident', 'file', 'notification', 'audit'] as const;

  beforeAll(async () => {
    platform = await startCluster({ leastPrivilege: true });
  }, 300_000);
  afterAll(() => platform?.stop(), 120_000);

  test('when each service runs with its own credentials, then onboarding, a report, the case list, settings, the audit trail and the welcome mail all work', async () => {
    const { baseUrl } = platform;
    const company = await onboardCompany(platform);
    // notification consumed company.created (published by auth's user) and mailed the admin.
    await platform.smtp.waitFor((mail) =>
      Boolean(mail.to && !Array.isArray(mail.to) && mail.to.text.includes(company.adminEmail)),
    );
    const body = JSON.stringify(await reportBody(await publicView(baseUrl, company.urlIdentifier)));
    // incident learns the company from auth's event: until then, 'Unknown company'.
    const report = await waitFor(
      async () => {
        const response = await fetch(`${baseUrl}/api/incident/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body,
        });
        if (response.status === 201) return (await response.json()) as { uuid: string };
        const refusal = await response.text();
        if (!refusal.includes('Unknown company')) throw new Error(`The report answered ${response.status}: ${refusal}`);
        return undefined;
      },
      { what: 'the report accepted', intervalMs: 250, timeoutMs: 60_000 },
    );
    const token = await apiToken(baseUrl, company.adminEmail);
    const authorization = { authorization: `Bearer ${token}`, accept: 'application/json' };
    // Staff requests run in each service's tenant scope, as its schema's own tenant role.
    const cases = await fetch(`${baseUrl}/api/incident`, { headers: authorization });
    expect(cases.status).toBe(200);
    expect(await cases.text()).toContain(report.uuid);
    const renamed = await fetch(`${baseUrl}/api/account/company`, {
      method: 'PUT',
      headers: { ...authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ settings: { resolution_deadline_days: 21 } }),
    });
    expect(renamed.status).toBe(200);
    // audit consumed incident.created (published by incident's user) and the admin reads it through audit's role.
    await waitFor(
      async () => {
        const log = await fetch(`${baseUrl}/api/account/company/audit_log`, { headers: authorization });
        return log.status === 200 && (await log.text()).includes(report.uuid);
      },
      { what: 'the report in the audit trail', intervalMs: 500, timeoutMs: 60_000 },
    );
  });

  test.each(services)(
    'when the %s login reads or writes another schema or takes another tenant role, then PostgreSQL refuses every attempt',
    async (service) => {
      const admin = new pg.Client({ connectionString: platform.databaseUrl });
      const login = new pg.Client({ connectionString: platform.credentials![service]!.databaseUrl });
      await admin.connect();
      await login.connect();
      try {
        const others = services.filter((other) => other !== service);
        const attempts = await crossSchemaAttempts(admin, (sql) => login.query(sql), others);
        expect(attempts.length).toBeGreaterThan(100);
        expect(attempts.filter((attempt) => !attempt.refused)).toEqual([]);
      } finally {
        await login.end();
        await admin.end();
      }
    },
  );

  test("when the file service's broker user publishes an event of auth's, then RabbitMQ refuses it", async () => {
    const connection = await amqplib.connect(platform.credentials!.file!.amqpUrl);
    try {
      const channel = await connection.createConfirmChannel();
      let closedWith = '';
      channel.on('error', (error: Error) => void (closedWith = error.message));
      const forged = {
        id: randomUUID(),
        name: 'user.updated',
        version: 1,
        company_id: randomUUID(),
        occurred_at: new Date().toISOString(),
        payload: {},
      };
      await expect(
        new Promise((resolve, reject) =>
          channel.publish(platform.exchange, 'user.updated', Buffer.from(JSON.stringify(forged)), {}, (error) =>
            error ? reject(error) : resolve(undefined),
          ),
        ),
      ).rejects.toBeDefined();
      await new Promise((resolve) => setImmediate(resolve));
      expect(closedWith).toMatch(/ACCESS_REFUSED/);
    } finally {
      await connection.close();
    }
  });
});
