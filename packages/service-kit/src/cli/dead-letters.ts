#!/usr/bin/env node
/**
 * The operator's look at a consumer's dead-letter queue, and its way to send the letters back once what made
 * them fail is fixed (docs/operations.md, "Dead letters"). Reads AMQP_URL and AMQP_EXCHANGE as the services do.
 *
 *   whistle-dead-letters list <consumer> [--limit N]
 *   whistle-dead-letters replay <consumer> [--event <event id>] [--limit N]
 *
 * Prints one JSON line per letter: event id, name, attempts and error; never the event's payload.
 */
import { parseArgs } from 'node:util';
import { listDeadLetters, replayDeadLetters } from '../messaging/dead-letters';
import { DEFAULT_EXCHANGE } from '../messaging/rabbitmq-event-bus';

const usage = 'usage: whistle-dead-letters list|replay <consumer> [--event <event id>] [--limit N]';

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { event: { type: 'string' }, limit: { type: 'string', default: '1000' } },
  });
  const [command, consumer] = positionals;
  const limit = Number(values.limit);
  const amqpUrl = process.env.AMQP_URL;
  if (!amqpUrl || !consumer || !['list', 'replay'].includes(command ?? '') || !Number.isSafeInteger(limit)) {
    process.stderr.write(`${usage}\n(AMQP_URL must be set)\n`);
    return 2;
  }
  const queue = { amqpUrl, exchange: process.env.AMQP_EXCHANGE || DEFAULT_EXCHANGE, consumer };
  const letters =
    command === 'list'
      ? await listDeadLetters(queue, limit)
      : await replayDeadLetters(queue, { eventId: values.event, limit });
  for (const letter of letters) process.stdout.write(`${JSON.stringify(letter)}\n`);
  process.stderr.write(`${letters.length} ${command === 'list' ? 'dead letters' : 'replayed'}\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${(error as Error)?.message ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
