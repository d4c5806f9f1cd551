import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import amqplib from 'amqplib';
import { brokerPermissionCommands } from '../messaging/broker-permissions';
import { consumerQueues, consumerRouter } from '../messaging/rabbitmq-event-bus';

const execFileAsync = promisify(execFile);

/** The broker tests use: `AMQP_URL`, else the local RabbitMQ. */
export function testAmqpUrl(): string {
  return process.env.AMQP_URL || 'amqp://guest:guest@127.0.0.1:5672';
}

/** A name no other test run uses, for exchanges and consumers (queues), e.g. `test-3fa2c1.audit`. */
export function uniqueTestName(prefix = 'test'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

/**
 * Deletes what a test declared: the exchanges, and for each consumer its queues and router on each of them (their
 * names derive from the exchange, so another run's are never touched). Missing ones are fine.
 */
export async function deleteRabbitTopology(
  topology: { exchanges?: readonly string[]; consumers?: readonly string[] },
  url: string = testAmqpUrl(),
): Promise<void> {
  const connection = await amqplib.connect(url);
  try {
    const channel = await connection.createChannel();
    for (const exchange of topology.exchanges ?? []) {
      for (const consumer of topology.consumers ?? []) {
        for (const queue of Object.values(consumerQueues(exchange, consumer))) await channel.deleteQueue(queue);
        await channel.deleteExchange(consumerRouter(exchange, consumer));
      }
    }
    for (const exchange of topology.exchanges ?? []) await channel.deleteExchange(exchange);
    await channel.close();
  } finally {
    await connection.close();
  }
}

export interface TestBrokerUser {
  /** AMQP URL of the test broker as this user. */
  url: string;
  remove(): Promise<void>;
}

/**
 * A RabbitMQ user of one service, made with rabbitmqctl exactly as docs/operations.md ("Broker users") says:
 * `add_user`, then brokerPermissionCommands run by a shell, so their quoting is tested too. Needs rabbitmqctl on this
 * machine with the right to reach the node (root, or the rabbitmq user's Erlang cookie). `publishes`: the events it
 * may publish (eventProducers of @whistle/contracts).
 */
export async function createBrokerUser(options: {
  exchange: string;
  consumer: string;
  publishes: readonly string[];
  url?: string;
}): Promise<TestBrokerUser> {
  const base = new URL(options.url ?? testAmqpUrl());
  const vhost = decodeURIComponent(base.pathname.slice(1)) || '/';
  const user = uniqueTestName(`whistle-${options.consumer}`);
  const password = randomBytes(12).toString('hex');
  await rabbitmqctl(`rabbitmqctl add_user ${user} ${password}`);
  try {
    for (const command of brokerPermissionCommands({ ...options, vhost, user })) await rabbitmqctl(command);
  } catch (error) {
    await rabbitmqctl(`rabbitmqctl delete_user ${user}`).catch(() => undefined);
    throw error;
  }
  const url = new URL(base);
  url.username = user;
  url.password = password;
  return { url: url.toString(), remove: () => rabbitmqctl(`rabbitmqctl delete_user ${user}`) };
}

async function rabbitmqctl(command: string): Promise<void> {
  try {
    await execFileAsync('sh', ['-c', command], { timeout: 60_000 });
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(
      `${command.split(' ').slice(0, 2).join(' ')} failed: ${stderr || stdout || (error as Error).message}`,
    );
  }
}
