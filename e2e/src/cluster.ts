import { generateKeyPairSync, randomBytes } from 'node:crypto';
import path from 'node:path';
import amqplib from 'amqplib';
import pg from 'pg';
import { eventProducers, resolveWorkload, workloads, type WorkloadName } from '@whistle/contracts';
import {
  createBrokerUser,
  createTcpProxy,
  createTestDatabase,
  deleteRabbitTopology,
  serviceLoginSql,
  testDatabaseUrl,
  type TcpProxy,
  type TestBrokerUser,
  type TestDatabase,
} from '@whistle/service-kit/testing';
import {
  recipientOf,
  startS3Server,
  startSmtpCatcher,
  type SmtpCatcher,
  type TestS3Server,
} from '@whistle/test-support';
import type { Mailbox } from './mailbox';
import { freePort, waitForHttp } from './free-port';
import { createGateway } from './gateway';
import { startNodeProcess, type RunningProcess } from './process-group';
import { repoRoot } from './repo';

export interface ClusterPlatform {
  /** The gateway: routes like the Ingress, by the routing table. */
  readonly baseUrl: string;
  /** The database, reached directly (not through the fault proxy). */
  readonly databaseUrl: string;
  /** The deployment's secrets (KEK, token keys): a cluster started on a restored backup needs the same. */
  readonly secrets: Readonly<Record<(typeof secretNames)[number], string>>;
  readonly amqpUrl: string;
  readonly exchange: string;
  readonly smtp: SmtpCatcher;
  /** The deployment's outgoing mail, as the SMTP server received it. */
  readonly mailbox: Mailbox;
  /** The service processes now running (a restarted one replaces its predecessor). */
  readonly processes: readonly RunningProcess[];
  /** With `leastPrivilege: true`: each service's own database login and broker user, as URLs. */
  readonly credentials?: Record<string, { databaseUrl: string; amqpUrl: string }>;
  /** With `faults: true`: the proxies the services reach PostgreSQL, RabbitMQ and S3 through, to cut and restore. */
  readonly faults?: { database: TcpProxy; broker: TcpProxy; objects: TcpProxy };
  /** Kills a service without warning (SIGKILL, as an OOM kill or a node failure would) and starts it again. */
  killAndRestart(name: WorkloadName): Promise<void>;
  stop(): Promise<void>;
}

/** `url` with its host and port replaced by the proxy's. */
function through(url: string, proxy: TcpProxy): string {
  const proxied = new URL(url);
  proxied.hostname = proxy.address.host;
  proxied.port = String(proxy.address.port);
  return proxied.toString();
}

/** An EC P-256 key pair as the Secret of a deployment holds it: PKCS#8 and SPKI PEM. */
function keyPair(privateName: string, publicName: string): Record<string, string> {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    [privateName]: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    [publicName]: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** What a deployment keeps in its Secret: a restored database is readable only with the same. */
const secretNames = [
  'KEY_ENCRYPTION_KEY',
  'TOKEN_SIGNING_KEY',
  'TOKEN_PUBLIC_KEY',
  'DISCLOSER_TOKEN_PRIVATE_KEY',
  'DISCLOSER_TOKEN_PUBLIC_KEY',
] as const;

const serviceNames = (Object.keys(workloads) as WorkloadName[]).filter((name) => workloads[name].kind === 'service');

interface ServiceCredentials {
  urls: Record<string, { databaseUrl: string; amqpUrl: string }>;
  remove(): Promise<void>;
}

/**
 * A database login and a broker user per service, as docs/operations.md ("Database roles", "Broker users") makes
 * them: each login owns its service's schema (named after the service) and has its tenant role, each broker user
 * publishes only its service's events. The shared exchange is declared here, by the administrator.
 */
async function createServiceCredentials(
  databaseUrl: string,
  amqpUrl: string,
  exchange: string,
): Promise<ServiceCredentials> {
  const suffix = randomBytes(4).toString('hex');
  const loginOf = (service: string) => `whistle_${service}_${suffix}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query(`revoke all on database ${new URL(databaseUrl).pathname.slice(1)} from public`);
    for (const service of serviceNames) {
      for (const sql of serviceLoginSql({ login: loginOf(service), schema: service })) await admin.query(sql);
      await admin.query(`grant connect on database ${new URL(databaseUrl).pathname.slice(1)} to ${loginOf(service)}`);
    }
  } finally {
    await admin.end();
  }
  const broker = await amqplib.connect(amqpUrl);
  await (await broker.createChannel()).assertExchange(exchange, 'topic', { durable: true });
  await broker.close();
  const users: Record<string, TestBrokerUser> = {};
  await Promise.all(
    serviceNames.map(async (service) => {
      users[service] = await createBrokerUser({
        exchange,
        consumer: service,
        publishes: eventProducers[service as keyof typeof eventProducers],
        url: amqpUrl,
      });
    }),
  );
  return {
    urls: Object.fromEntries(
      serviceNames.map((service) => {
        const url = new URL(databaseUrl);
        url.username = loginOf(service);
        return [service, { databaseUrl: url.toString(), amqpUrl: users[service]!.url }];
      }),
    ),
    async remove() {
      await Promise.all(Object.values(users).map((user) => user.remove()));
      // After the database is dropped: the logins own nothing else.
      const cleanup = new pg.Client({ connectionString: testDatabaseUrl() });
      await cleanup.connect();
      try {
        for (const service of serviceNames) await cleanup.query(`drop role if exists ${loginOf(service)}`);
      } finally {
        await cleanup.end();
      }
    },
  };
}

/**
 * Cluster mode on one machine: each service its own process, on PostgreSQL and RabbitMQ on loopback,
 * an S3 API (s3rver) and a real SMTP server — the configuration a Kubernetes deployment gives them.
 */
export async function startCluster({
  faults = false,
  leastPrivilege = false,
  env = {},
  databaseUrl,
  objectStore,
}: {
  faults?: boolean;
  /** Each service with its own database login and broker user (docs/operations.md), not the administrator's. */
  leastPrivilege?: boolean;
  /** Extra or overriding variables of every service (the secrets of another cluster, limits...). */
  env?: Record<string, string>;
  /** A database of the caller's (a restored backup), used as it is and left in place; else a fresh one, dropped. */
  databaseUrl?: string;
  /** An S3 server of the caller's with the bucket `whistle-files` (one object store for two clusters), left running. */
  objectStore?: TestS3Server;
} = {}): Promise<ClusterPlatform> {
  const database: TestDatabase = databaseUrl
    ? { url: databaseUrl, drop: async () => undefined }
    : await createTestDatabase();
  const amqpUrl = process.env.AMQP_URL || 'amqp://guest:guest@127.0.0.1:5672';
  const proxies = faults
    ? {
        database: await createTcpProxy({
          host: new URL(database.url).hostname,
          port: Number(new URL(database.url).port || 5432),
        }),
        broker: await createTcpProxy({ host: new URL(amqpUrl).hostname, port: Number(new URL(amqpUrl).port || 5672) }),
      }
    : undefined;
  const s3 = objectStore ?? (await startS3Server({ buckets: ['whistle-files'] }));
  const s3Proxy = proxies
    ? await createTcpProxy({ host: new URL(s3.endpoint).hostname, port: Number(new URL(s3.endpoint).port) })
    : undefined;
  const smtp = await startSmtpCatcher();
  const gatewayPort = await freePort();
  const baseUrl = `http://127.0.0.1:${gatewayPort}`;
  // A fresh exchange per run keeps parallel runs on one broker apart.
  const exchange = `whistle.test.${randomBytes(4).toString('hex')}`;
  const credentials = leastPrivilege ? await createServiceCredentials(database.url, amqpUrl, exchange) : undefined;

  const shared = {
    DATABASE_URL: proxies ? through(database.url, proxies.database) : database.url,
    AMQP_URL: proxies ? through(amqpUrl, proxies.broker) : amqpUrl,
    AMQP_EXCHANGE: exchange,
    S3_ENDPOINT: s3Proxy ? `http://${s3Proxy.address.host}:${s3Proxy.address.port}` : s3.endpoint,
    S3_BUCKET: 'whistle-files',
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    SMTP_URL: smtp.url,
    PUBLIC_URL: baseUrl,
    KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    ...keyPair('TOKEN_SIGNING_KEY', 'TOKEN_PUBLIC_KEY'),
    ...keyPair('DISCLOSER_TOKEN_PRIVATE_KEY', 'DISCLOSER_TOKEN_PUBLIC_KEY'),
    LOG_LEVEL: 'info',
    ...env,
  };
  const ports = new Map<WorkloadName, number>();
  const processes: RunningProcess[] = [];
  const start = (name: WorkloadName) =>
    startNodeProcess(name, path.join(repoRoot, 'services', name, 'dist', 'main.js'), {
      ...shared,
      ...(credentials
        ? {
            DATABASE_URL: proxies
              ? through(credentials.urls[name]!.databaseUrl, proxies.database)
              : credentials.urls[name]!.databaseUrl,
            AMQP_URL: proxies
              ? through(credentials.urls[name]!.amqpUrl, proxies.broker)
              : credentials.urls[name]!.amqpUrl,
          }
        : {}),
      PORT: String(ports.get(name)),
    });
  for (const name of serviceNames) {
    ports.set(name, await freePort());
    processes.push(start(name));
  }

  const gateway = createGateway((url) => {
    const workload = resolveWorkload(new URL(url, baseUrl).pathname);
    return workload ? ports.get(workload) : undefined;
  });
  await new Promise<void>((resolve) => gateway.listen(gatewayPort, '127.0.0.1', () => resolve()));

  const stop = async () => {
    await Promise.all(processes.map((running) => running.stop()));
    await new Promise<void>((resolve) => gateway.close(() => resolve()));
    await smtp.close();
    if (!objectStore) await s3.stop();
    await proxies?.database.close();
    await proxies?.broker.close();
    await s3Proxy?.close();
    await database.drop();
    // Every service consumes under its own name (createServiceLifecycle's default consumer).
    await deleteRabbitTopology({ exchanges: [shared.AMQP_EXCHANGE], consumers: serviceNames }, amqpUrl);
    await credentials?.remove();
  };
  try {
    for (const running of processes) {
      await waitForHttp(`http://127.0.0.1:${ports.get(running.name as WorkloadName)}/readyz`, 60_000, running.output);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    baseUrl,
    databaseUrl: database.url,
    secrets: Object.fromEntries(
      secretNames.map((name) => [name, (shared as Record<string, string>)[name]!]),
    ) as ClusterPlatform['secrets'],
    amqpUrl,
    exchange: shared.AMQP_EXCHANGE,
    smtp,
    mailbox: async (to, subject) => {
      const mail = await smtp.waitFor(
        (candidate) => recipientOf(candidate) === to.toLowerCase() && subject.test(candidate.subject ?? ''),
        `${subject} to ${to}`,
      );
      return { subject: mail.subject ?? '', text: mail.text ?? '' };
    },
    processes,
    credentials: credentials?.urls,
    faults: proxies && s3Proxy ? { ...proxies, objects: s3Proxy } : undefined,
    async killAndRestart(name) {
      const index = processes.findIndex((running) => running.name === name);
      const killed = processes[index]!;
      const exited = new Promise((resolve) => killed.child.once('exit', resolve));
      killed.child.kill('SIGKILL');
      await exited;
      processes[index] = start(name);
      await waitForHttp(`http://127.0.0.1:${ports.get(name)}/readyz`, 60_000, processes[index]!.output);
    },
    stop,
  };
}
