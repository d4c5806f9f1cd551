import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's Prometheus metrics (served by `startMetricsServer`, never on the routed HTTP port). One
 * registry per process: a service runs alone in its container; standalone, the route and schema labels tell
 * the services apart. Labels are route templates, schemas, consumers and limiter names: never a tenant, a
 * user, an id or an address (privacy, and a bounded number of series).
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, prefix: 'whistle_' });

export const httpRequestDuration = new Histogram({
  name: 'whistle_http_request_duration_seconds',
  help: 'HTTP requests by method, route template and status, as the service answered them',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

export const eventsConsumed = new Counter({
  name: 'whistle_events_consumed_total',
  help: 'Event deliveries by consumer and outcome: handled, retried (handler failed, tried again later) or dead_lettered',
  labelNames: ['consumer', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const rateLimitRefusals = new Counter({
  name: 'whistle_rate_limit_refusals_total',
  help: 'Requests refused with 429 by limiter',
  labelNames: ['limiter'] as const,
  registers: [metricsRegistry],
});

export const rateLimitDelays = new Counter({
  name: 'whistle_rate_limit_delays_total',
  help: 'Requests past a slow-down limit, served late instead of refused, by limiter',
  labelNames: ['limiter'] as const,
  registers: [metricsRegistry],
});

/** Incident: report retrievals refused for a wrong secret code (counted to alert, never to refuse). */
export const retrievalFailures = new Counter({
  name: 'whistle_incident_retrieval_failures_total',
  help: 'Report retrievals refused for a wrong secret code (unknown company, retrieval id or token)',
  registers: [metricsRegistry],
});

export const retrievalFailureSurges = new Counter({
  name: 'whistle_incident_retrieval_failure_surges_total',
  help: 'Times one company’s failed retrievals reached RETRIEVAL_FAILURE_ALERT_PER_COMPANY in a window',
  registers: [metricsRegistry],
});

export const mailsSent = new Counter({
  name: 'whistle_mails_total',
  help: 'E-mails handed to the mail server (sent) or refused by it (failed, retried later)',
  labelNames: ['result'] as const,
  registers: [metricsRegistry],
});

/** Readings taken when Prometheus scrapes: each source registers how to read itself. */
type Reading<L extends string> = () => Promise<{ labels: Record<L, string>; value: number }[]>;

function scrapedGauge<L extends string>(name: string, help: string, labelNames: readonly L[]) {
  const readings = new Set<Reading<L>>();
  new Gauge({
    name,
    help,
    labelNames,
    registers: [metricsRegistry],
    async collect() {
      this.reset();
      for (const read of readings) {
        // A source that cannot answer (its database is down) leaves its series out of this scrape.
        const values = await read().catch(() => []);
        for (const { labels, value } of values) this.set(labels as never, value);
      }
    },
  });
  return (read: Reading<L>) => {
    readings.add(read);
    return () => void readings.delete(read);
  };
}

/**
 * `read` shared by the gauges of one scrape: a call while one is running gets its answer, and the next scrape
 * reads again. So one query (or one round of broker calls) serves several gauges.
 */
export function sharedReading<T>(read: () => Promise<T>): () => Promise<T> {
  let reading: Promise<T> | undefined;
  return () => (reading ??= read().finally(() => setImmediate(() => (reading = undefined))));
}

/** Outbox backlog per schema: events written but not yet confirmed by the broker, and the oldest one's age. */
export const readOutboxBacklog = scrapedGauge(
  'whistle_outbox_pending_events',
  'Events in the outbox not yet published',
  ['schema'] as const,
);
export const readOutboxAge = scrapedGauge(
  'whistle_outbox_oldest_pending_age_seconds',
  'Age of the oldest event in the outbox not yet published (0 when none)',
  ['schema'] as const,
);

/**
 * Free space of the disk under a disk store (standalone `DATA_DIR`), as an unprivileged process may use it: the
 * store stops being ready under 64 MiB, and uploads answer 503 once nothing fits.
 */
export const readDiskFree = scrapedGauge(
  'whistle_disk_free_bytes',
  'Free bytes on the disk of a disk store (objects: DATA_DIR/objects)',
  ['store'] as const,
);

/** Connection pool of the PostgreSQL adapter: connections open, idle, and callers waiting for one. */
export const readDatabasePool = scrapedGauge('whistle_db_pool_connections', 'PostgreSQL pool connections by state', [
  'state',
] as const);

/**
 * The broker's queues of each consumer of this service (RabbitMQ): messages waiting in the main queue (consumer
 * lag), in the retry queue (failed, waiting to be tried again) and in the dead-letter queue (given up: see
 * "Dead letters" in docs/operations.md), and how many consumers, of every replica, read the main queue.
 */
export const readQueueMessages = scrapedGauge('whistle_queue_messages', 'Messages waiting in a consumer queue', [
  'consumer',
  'queue',
] as const);
export const readQueueConsumers = scrapedGauge(
  'whistle_queue_consumers',
  "Consumers reading a consumer's main queue, all replicas together",
  ['consumer'] as const,
);
