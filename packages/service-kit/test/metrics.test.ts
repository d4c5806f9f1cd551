import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Router } from 'express';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { platformConfigSchema } from '../src/config/platform-config';
import { databasePort } from '../src/database/database-port';
import { rateLimit } from '../src/http/rate-limit';
import amqplib from 'amqplib';
import { eventBusPort } from '../src/messaging/event-bus-port';
import { consumerQueues } from '../src/messaging/rabbitmq-event-bus';
import type { ServiceDependencies } from '../src/ports/port';
import { runService } from '../src/run-service';
import { createServiceLifecycle } from '../src/service-lifecycle';
import {
  createTestDatabase,
  deleteRabbitTopology,
  testAmqpUrl,
  uniqueTestName,
  waitFor,
  type TestDatabase,
} from '../src/testing';

const ports = { db: databasePort, bus: eventBusPort };

interface Family {
  name: string;
  metrics: { labels?: Record<string, string>; value?: string; buckets?: Record<string, string>; count?: string }[];
}

/**
 * A service run as a cluster runs it (PostgreSQL, RabbitMQ, its own process entry) with METRICS_PORT set: the
 * series an operator alerts on appear and move, and no label carries an id.
 */
describe('metrics of a running service', () => {
  let database: TestDatabase;
  let dataDir: string;
  const exchange = uniqueTestName('metrics');
  const companyId = '5f1b7c1e-2d1a-4c55-9a51-7e0b3f7f2a10';

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(tmpdir(), 'metrics-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
    await deleteRabbitTopology({ exchanges: [exchange], consumers: ['metered'] });
    await database.drop();
  });

  it('when requests, refusals and events go through, then /metrics on its own port shows them by route, limiter, consumer, queue and schema, without ids', async () => {
    const create = (deps: ServiceDependencies<typeof ports>) => {
      const lifecycle = createServiceLifecycle({
        name: 'metered',
        schema: 'metered',
        migrations: [],
        deps,
        subscriptions: [{ events: ['incident.viewed'], handle: async () => undefined }],
      });
      const router = Router();
      router.post(
        '/api/metered/:item_id',
        rateLimit({ name: 'metered-client', windowMs: 60_000, limit: 1 }),
        async (_req, res) => {
          await lifecycle.unitOfWork((tx) =>
            tx.addEvent({ name: 'incident.viewed', company_id: companyId, payload: { incident_id: companyId } }),
          );
          res.status(204).end();
        },
      );
      return { name: 'metered', router, start: lifecycle.start, stop: lifecycle.stop };
    };
    const running = await runService({
      name: 'metered',
      configSchema: platformConfigSchema,
      ports,
      create,
      exit: () => undefined,
      env: {
        PORT: '0',
        METRICS_PORT: '0',
        LOG_LEVEL: 'silent',
        DATABASE_URL: database.url,
        AMQP_URL: testAmqpUrl(),
        AMQP_EXCHANGE: exchange,
        DATA_DIR: dataDir,
        PUBLIC_URL: 'https://whistle.example.com',
      },
    });
    try {
      const api = `http://127.0.0.1:${running!.port}`;
      expect((await fetch(`${api}/api/metered/${companyId}`, { method: 'POST' })).status).toBe(204);
      expect((await fetch(`${api}/api/metered/${companyId}`, { method: 'POST' })).status).toBe(429);
      expect((await fetch(`${api}/api/nowhere`)).status).toBe(404);
      // The API port does not serve the metrics.
      expect((await fetch(`${api}/metrics`)).status).toBe(404);

      const scrape = async () => {
        const response = await fetch(`http://127.0.0.1:${running!.metricsPort}/metrics`);
        expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
        // The parser keeps no labels on a histogram's samples: read its _count series as plain samples.
        const text = (await response.text()).replace(/^# TYPE whistle_http_request_duration_seconds histogram$/m, '');
        return parsePrometheusTextFormat(text) as Family[];
      };
      // A name may come back as several families (the histogram's series, read as plain samples): all of them.
      const series = (families: Family[], name: string) => {
        const found = families.filter((family) => family.name === name);
        return found.length === 0 ? undefined : found.flatMap((family) => family.metrics);
      };
      const handled = async () =>
        series(await scrape(), 'whistle_events_consumed_total')?.find(
          (metric) => metric.labels?.consumer === 'metered' && metric.labels.outcome === 'handled',
        );
      await waitFor(handled, { what: 'the consumed event counted' });

      const families = await scrape();
      const requests = series(families, 'whistle_http_request_duration_seconds_count')!;
      expect(requests.map((metric) => metric.labels)).toEqual(
        expect.arrayContaining([
          { method: 'POST', route: '/api/metered/:item_id', status: '204' },
          { method: 'POST', route: '/api/metered/:item_id', status: '429' },
          { method: 'GET', route: '(unmatched)', status: '404' },
        ]),
      );
      expect(series(families, 'whistle_rate_limit_refusals_total')).toEqual([
        { labels: { limiter: 'metered-client' }, value: '1' },
      ]);
      expect(series(families, 'whistle_outbox_pending_events')).toEqual(
        expect.arrayContaining([{ labels: { schema: 'metered' }, value: expect.any(String) }]),
      );
      expect(series(families, 'whistle_outbox_oldest_pending_age_seconds')).toEqual(
        expect.arrayContaining([{ labels: { schema: 'metered' }, value: expect.any(String) }]),
      );
      expect(series(families, 'whistle_db_pool_connections')?.map((metric) => metric.labels?.state)).toEqual(
        expect.arrayContaining(['total', 'idle', 'waiting']),
      );
      expect(series(families, 'whistle_process_resident_memory_bytes')).toBeDefined();
      expect(series(families, 'whistle_queue_consumers')).toEqual([{ labels: { consumer: 'metered' }, value: '1' }]);

      // A malformed message is dead-lettered at once: the consumer's dead-letter queue shows it.
      const connection = await amqplib.connect(testAmqpUrl());
      try {
        const channel = await connection.createChannel();
        channel.sendToQueue(consumerQueues(exchange, 'metered').main, Buffer.from('not an event'));
        await channel.close();
      } finally {
        await connection.close();
      }
      const queueDepth = async (queue: string) =>
        series(await scrape(), 'whistle_queue_messages')?.find(
          (metric) => metric.labels?.consumer === 'metered' && metric.labels.queue === queue,
        )?.value;
      await waitFor(async () => (await queueDepth('dlq')) === '1', { what: 'the dead letter counted' });
      expect(await queueDepth('main')).toBe('0');
      expect(await queueDepth('retry')).toBe('0');
      // Route templates and names only: the request's id (a company id here) is in no label.
      const labels = JSON.stringify(families.flatMap((family) => family.metrics.map((metric) => metric.labels ?? {})));
      expect(labels).not.toContain(companyId);
    } finally {
      await running?.shutdown('SIGTERM');
    }
  });
});
