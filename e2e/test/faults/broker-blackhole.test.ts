import { randomUUID } from 'node:crypto';
import pg from 'pg';
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

/**
 * Issue 30, item 7: packets between every service and RabbitMQ dropped (no reset, no refusal) while reports come
 * in. With the services' own heartbeat (15 s) the silence is noticed within 30 s; the broker's default (60 s) took
 * two minutes. Reports keep being accepted, the services say so once, and after the partition every accepted
 * report is stored and audited exactly once.
 */
describe('cluster with the broker black-holed', () => {
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

  it('when RabbitMQ is black-holed during reports, then they are still accepted, the outage is logged once per service, and afterwards each is audited exactly once', async () => {
    const company = await onboardCompany(platform);
    const view = await publicView(platform.baseUrl, company.urlIdentifier);
    const send = async (): Promise<Response> =>
      fetch(`${platform.baseUrl}/api/incident/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'idempotency-key': randomUUID() },
        body: JSON.stringify(await reportBody(view)),
      });
    const accepted: string[] = [];
    // The incident service learns the company from auth's event: the first report is sent until it is accepted.
    for (let tries = 0; tries < 100 && accepted.length === 0; tries += 1) {
      const response = await send();
      if (response.status === 201) accepted.push(((await response.json()) as { uuid: string }).uuid);
      else await response.arrayBuffer();
      if (accepted.length === 0) await sleep(200);
    }
    expect(accepted).toHaveLength(1);

    const faults = platform.faults!;
    const incident = platform.processes.find((running) => running.name === 'incident')!;
    faults.broker.blackhole();
    // Until the heartbeat notices and after: writes do not wait for the broker (their events wait in the outbox).
    const statuses: number[] = [];
    const lost = () => /RabbitMQ connection lost/.test(incident.output());
    // Two heartbeats of 15 s, and some room: a minute.
    const giveUpAt = Date.now() + 60_000;
    while (Date.now() < giveUpAt && !(lost() && statuses.length >= 10)) {
      const response = await send();
      statuses.push(response.status);
      if (response.status === 201) accepted.push(((await response.json()) as { uuid: string }).uuid);
      else await response.arrayBuffer();
      await sleep(500);
    }
    expect(lost()).toBe(true);
    expect(statuses.filter((status) => status !== 201)).toEqual([]);
    await faults.broker.restore();

    const stored = (await query<{ id: string }>(platform.databaseUrl, 'SELECT id FROM incident.incident')).map(
      (row) => row.id,
    );
    expect([...stored].sort()).toEqual([...accepted].sort());
    const audited = async () =>
      (
        await query<{ object_id: string }>(
          platform.databaseUrl,
          `SELECT object_id FROM audit.audit_event WHERE name = 'incident.created'`,
        )
      ).map((row) => row.object_id);
    const deadline = Date.now() + 90_000;
    while ((await audited()).length < stored.length && Date.now() < deadline) await sleep(500);
    expect([...(await audited())].sort()).toEqual([...stored].sort());

    for (const running of platform.processes) {
      expect({ name: running.name, exitCode: running.child.exitCode }).toEqual({ name: running.name, exitCode: null });
      expect(running.output()).not.toMatch(/Unhandled 'error' event|uncaughtException|UnhandledPromiseRejection/);
      // One warning for the lost connection, not one per failed attempt while the hole lasted.
      const warnings = (running.output().match(/RabbitMQ connection lost/g) ?? []).length;
      expect({ name: running.name, warnings: warnings <= 1 }).toEqual({ name: running.name, warnings: true });
    }
    // eslint-disable-next-line no-console -- the suite's figures are its report
    console.log(
      `broker black hole: ${statuses.length} reports sent during it, ${accepted.length} accepted and audited`,
    );
  });
});
