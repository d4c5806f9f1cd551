import { randomUUID } from 'node:crypto';
import amqplib from 'amqplib';
import type { EventEnvelope } from '@whistle/contracts';
import { testAmqpUrl } from '../../src/testing';

/** Text put in payloads so a test can prove it never reached a log line. */
export const PAYLOAD_MARKER = 'payload-marker-must-not-be-logged';

export function envelope(name: string, payload: Record<string, unknown> = { marker: PAYLOAD_MARKER }): EventEnvelope {
  return {
    id: randomUUID(),
    name,
    version: 1,
    company_id: randomUUID(),
    occurred_at: new Date().toISOString(),
    payload,
  };
}

/** Empties a RabbitMQ queue and returns the messages' bodies as text. */
export async function drainQueue(queue: string): Promise<string[]> {
  const connection = await amqplib.connect(testAmqpUrl());
  try {
    const channel = await connection.createChannel();
    const bodies: string[] = [];
    for (;;) {
      const message = await channel.get(queue, { noAck: true });
      if (!message) break;
      bodies.push(message.content.toString('utf8'));
    }
    await channel.close();
    return bodies;
  } finally {
    await connection.close();
  }
}

/** Publishes raw bytes to an exchange, bypassing the bus (to forge a malformed message or headers). */
export async function publishRaw(
  exchange: string,
  routingKey: string,
  body: string,
  headers: Record<string, unknown> = {},
): Promise<void> {
  const connection = await amqplib.connect(testAmqpUrl());
  try {
    const channel = await connection.createConfirmChannel();
    channel.publish(exchange, routingKey, Buffer.from(body), { headers });
    await channel.waitForConfirms();
    await channel.close();
  } finally {
    await connection.close();
  }
}
