import { randomUUID } from 'node:crypto';
import amqplib from 'amqplib';
import pg from 'pg';
import { consumerQueues } from '@whistle/service-kit';
import { startCluster, type ClusterPlatform } from '../../src/cluster';
import { reportBody, publicView } from '../../src/reports';
import { onboardCompany } from '../../src/staff';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function query<R extends pg.QueryResultRow>(databaseUrl: string, sql: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<R>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** Messages no consumer can use: not JSON, a bad timestamp with a non-numeric attempt header, a payload off the catalogue. */
async function publishPoison(platform: ClusterPlatform, companyId: string): Promise<number> {
  const connection = await amqplib.connect(platform.amqpUrl);
  try {
    const channel = await connection.createConfirmChannel();
    const envelope = (overrides: Record<string, unknown>) =>
      Buffer.from(
        JSON.stringify({
          id: crypto.randomUUID(),
          name: 'incident.created',
          version: 1,
          company_id: companyId,
          occurred_at: new Date().toISOString(),
          payload: {},
          ...overrides,
        }),
      );
    const messages: [Buffer, Record<string, unknown>][] = [
      [Buffer.from('not json at all'), {}],
      [envelope({ occurred_at: 'yesterday-ish' }), { 'x-whistle-attempt': 'NaN' }],
      [envelope({ payload: { incident_id: 'not-a-uuid' } }), {}],
    ];
    for (const [body, headers] of messages) channel.publish(platform.exchange, 'incident.created', body, { headers });
    await channel.waitForConfirms();
    return messages.length;
  } finally {
    await connection.close();
  }
}

/**
 * Issue 11: in cluster mode (a process per service on PostgreSQL and RabbitMQ), a burst of reports goes
 * on while PostgreSQL restarts (its connections cut, then refused for seconds), terminates every session
 * as an administrator restart does, the broker is away, the audit consumer is killed mid-stream, and
 * poison messages arrive. No process crashes, every accepted report is stored, and the audit trail has
 * each report exactly once.
 */
describe('cluster under faults', () => {
  let platform: ClusterPlatform;

  beforeAll(async () => {
    platform = await startCluster({
      faults: true,
      env: { REPORT_LIMIT_PER_CLIENT: '100000', POW_FREE_REPORTS_PER_COMPANY: '100000' },
    });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('when PostgreSQL restarts, sessions are terminated, the broker is down, a consumer is killed and poison arrives during a burst of reports, then nothing crashes, is lost or is duplicated', async () => {
    const company = await onboardCompany(platform);
    const view = await publicView(platform.baseUrl, company.urlIdentifier);
    const bodies = await Promise.all(Array.from({ length: 40 }, () => reportBody(view)));
    const send = (body: unknown, idempotencyKey: string) =>
      fetch(`${platform.baseUrl}/api/incident/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'idempotency-key': idempotencyKey },
        // Each body has its own keys; reusing them across reports is harmless for this test.
        body: JSON.stringify(body),
      });
    const statuses = new Map<number, number>();
    const accepted: string[] = [];
    /**
     * One report as the report page sends it: one idempotency key, and the same request again after a
     * connection failure or a 503 until it is answered, so no report is stored without its discloser knowing.
     */
    async function report(index: number): Promise<void> {
      const key = randomUUID();
      const body = bodies[index % bodies.length];
      for (let attempt = 0; attempt < 100; attempt += 1) {
        try {
          const response = await send(body, key);
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          if (response.status === 201) {
            accepted.push(((await response.json()) as { uuid: string }).uuid);
            return;
          }
          await response.arrayBuffer();
          if (response.status !== 503) return;
        } catch {
          statuses.set(0, (statuses.get(0) ?? 0) + 1);
        }
        await sleep(200);
      }
    }
    // The incident service learns the company from auth's event: a first report is sent until it is accepted.
    const firstKey = randomUUID();
    for (let tries = 0; tries < 100; tries += 1) {
      const response = await send(bodies[0], firstKey);
      if (response.status === 201) {
        accepted.push(((await response.json()) as { uuid: string }).uuid);
        break;
      }
      await response.arrayBuffer();
      await sleep(200);
    }

    let running = true;
    let sent = 1;
    const worker = async () => {
      while (running) {
        sent += 1;
        await report(sent);
      }
    };
    const workers = Array.from({ length: 4 }, worker);

    const faults = platform.faults!;
    await sleep(1000);
    // PostgreSQL restarts: every connection is cut, new ones are refused for 3 s.
    await faults.database.cut();
    await sleep(3000);
    await faults.database.restore();
    await sleep(1500);
    // An administrator restart as PostgreSQL reports it to each session (57P01).
    await query(
      platform.databaseUrl,
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    await sleep(1500);
    // The broker is away for 5 s: reports are still accepted, their events wait in the outbox.
    await faults.broker.cut();
    await sleep(5000);
    await faults.broker.restore();
    const poison = await publishPoison(
      platform,
      (await query<{ id: string }>(platform.databaseUrl, `SELECT id FROM incident.company LIMIT 1`))[0]!.id,
    );
    // The audit consumer dies mid-stream and comes back.
    await platform.killAndRestart('audit');
    await sleep(1500);
    running = false;
    await Promise.all(workers);

    // Every accepted report is stored, every stored report was answered to its sender (retried with its key,
    // a report whose answer was lost is answered the second time, not stored twice), and the audit trail
    // records each stored report once.
    const stored = (await query<{ id: string }>(platform.databaseUrl, 'SELECT id FROM incident.incident')).map(
      (row) => row.id,
    );
    expect(accepted.filter((id) => !stored.includes(id))).toEqual([]);
    expect([...stored].sort()).toEqual([...new Set(accepted)].sort());
    const audited = async () =>
      query<{ object_id: string }>(
        platform.databaseUrl,
        `SELECT object_id FROM audit.audit_event WHERE name = 'incident.created'`,
      );
    const deadline = Date.now() + 60_000;
    while ((await audited()).length < stored.length && Date.now() < deadline) await sleep(500);
    const auditedIds = (await audited()).map((row) => row.object_id);
    const lost =
      accepted.filter((id) => !stored.includes(id)).length + stored.filter((id) => !auditedIds.includes(id)).length;
    const duplicated = auditedIds.length - new Set(auditedIds).size;
    expect(auditedIds.length).toBe(stored.length);
    expect(new Set(auditedIds).size).toBe(auditedIds.length);
    expect([...auditedIds].sort()).toEqual([...stored].sort());

    // The poison went to the audit consumer's dead-letter queue and blocked nothing.
    const connection = await amqplib.connect(platform.amqpUrl);
    try {
      const channel = await connection.createChannel();
      const { messageCount } = await channel.checkQueue(consumerQueues(platform.exchange, 'audit').dlq);
      expect(messageCount).toBeGreaterThanOrEqual(poison);
    } finally {
      await connection.close();
    }

    // No process crashed; outages were logged once each, not per request.
    for (const running of platform.processes) {
      expect({ name: running.name, exitCode: running.child.exitCode }).toEqual({ name: running.name, exitCode: null });
      expect(running.output()).not.toMatch(/Unhandled 'error' event|uncaughtException|UnhandledPromiseRejection/);
    }
    const incidentLog = platform.processes.find((running) => running.name === 'incident')!.output();
    expect((incidentLog.match(/PostgreSQL is unreachable/g) ?? []).length).toBeLessThanOrEqual(3);
    expect([...statuses].filter(([status]) => status !== 201 && status !== 503)).toEqual([]);

    // eslint-disable-next-line no-console -- the suite's figures (requests, faults, events) are its report
    console.log(
      `cluster faults: ${sent} reports sent (retried with their key on failure), ${accepted.length} accepted (201), ${statuses.get(503) ?? 0} refused with 503 during outages, ` +
        `${stored.length} stored, ${auditedIds.length} audited, ${stored.length - new Set(accepted).size} stored while their client saw a failure, ` +
        `${lost} lost, ${duplicated} duplicated; faults: 1 database restart (3 s refused), 1 session termination, 1 broker outage (5 s), 1 consumer killed, ${poison} poison messages`,
    );
  });
});
