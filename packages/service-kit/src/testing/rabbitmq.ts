import { randomBytes } from 'node:crypto';
import amqplib from 'amqplib';
import { consumerQueues } from '../messaging/rabbitmq-event-bus';

/** The broker tests use: `AMQP_URL`, else the local RabbitMQ. */
export function testAmqpUrl(): string {
  return process.env.AMQP_URL || 'amqp://guest:guest@127.0.0.1:5672';
}

/** A name no other test run uses, for exchanges and consumers (queues), e.g. `test-3fa2c1.audit`. */
export function uniqueTestName(prefix = 'test'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

/**
 * Deletes what a test declared: the exchanges, and for each consumer its queues on each of them (queue
 * names derive from the exchange, so another run's queues are never touched). Missing ones are fine.
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
      }
    }
    for (const exchange of topology.exchanges ?? []) await channel.deleteExchange(exchange);
    await channel.close();
  } finally {
    await connection.close();
  }
}
