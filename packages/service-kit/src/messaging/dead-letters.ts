import amqplib, { type GetMessage } from 'amqplib';
import {
  ATTEMPT_HEADER,
  ERROR_HEADER,
  consumerQueues,
  consumerRouter,
  DEFAULT_EXCHANGE,
  ROUTER_KEYS,
} from './rabbitmq-event-bus';

/** Where a consumer's dead letters are: the broker, the deployment's exchange and the consumer's name. */
export interface DeadLetterQueue {
  amqpUrl: string;
  exchange?: string;
  consumer: string;
}

/** What an operator sees of a dead letter: ids, the event's name and why it failed, never its payload. */
export interface DeadLetterSummary {
  eventId: string | null;
  eventName: string | null;
  attempts: number | null;
  error: string | null;
}

/** How many times an event was replayed from a DLQ, so a message that keeps failing is seen as such. */
const REPLAYED_HEADER = 'x-whistle-replayed';

function describe(message: GetMessage): DeadLetterSummary {
  const headers = message.properties.headers ?? {};
  const attempts = Number(headers[ATTEMPT_HEADER]);
  return {
    eventId: typeof message.properties.messageId === 'string' ? message.properties.messageId : null,
    eventName: typeof message.properties.type === 'string' ? message.properties.type : null,
    attempts: Number.isSafeInteger(attempts) ? attempts : null,
    error: typeof headers[ERROR_HEADER] === 'string' ? headers[ERROR_HEADER] : null,
  };
}

/**
 * Takes every message of the consumer's DLQ (at most `limit`) on one channel, lets `decide` settle each, and
 * gives back unacknowledged whatever it did not take: the broker returns those to the DLQ when the channel
 * closes. Reading the count first bounds the walk, so returned messages are never read twice.
 */
async function walk(
  queue: DeadLetterQueue,
  limit: number,
  decide: (letter: DeadLetterSummary, message: GetMessage, replay: () => Promise<void>) => Promise<boolean>,
): Promise<void> {
  const queues = consumerQueues(queue.exchange ?? DEFAULT_EXCHANGE, queue.consumer);
  const connection = await amqplib.connect(queue.amqpUrl);
  try {
    const channel = await connection.createConfirmChannel();
    const { messageCount } = await channel.checkQueue(queues.dlq);
    const taken: GetMessage[] = [];
    for (let read = 0; read < Math.min(messageCount, limit); read += 1) {
      const message = await channel.get(queues.dlq, { noAck: false });
      if (!message) break;
      const replay = async () => {
        const { [ATTEMPT_HEADER]: _attempt, ...headers } = message.properties.headers ?? {};
        // Through the consumer's router: its broker user may write there, not to the default exchange.
        await new Promise<void>((resolve, reject) =>
          channel.publish(
            consumerRouter(queue.exchange ?? DEFAULT_EXCHANGE, queue.consumer),
            ROUTER_KEYS.main,
            message.content,
            {
              persistent: true,
              messageId: message.properties.messageId as string | undefined,
              type: message.properties.type as string | undefined,
              contentType: message.properties.contentType as string | undefined,
              // A fresh set of attempts; the replay is counted.
              headers: { ...headers, [REPLAYED_HEADER]: (Number(headers[REPLAYED_HEADER]) || 0) + 1 },
            },
            (error) => (error ? reject(error) : resolve()),
          ),
        );
      };
      if (await decide(describe(message), message, replay)) channel.ack(message);
      else taken.push(message);
    }
    // Left as they were, in their order.
    if (taken.length > 0) channel.nackAll(true);
    await channel.close();
  } finally {
    await connection.close();
  }
}

/** The consumer's dead letters, oldest first, left in place. */
export async function listDeadLetters(queue: DeadLetterQueue, limit = 1000): Promise<DeadLetterSummary[]> {
  const letters: DeadLetterSummary[] = [];
  await walk(queue, limit, async (letter) => {
    letters.push(letter);
    return false;
  });
  return letters;
}

/**
 * Sends dead letters back to the consumer's main queue (all of them, or the one event `eventId`) with fresh
 * attempts, once what made them fail is fixed. Each leaves the DLQ only once the broker confirmed its copy in
 * the main queue; consumers are idempotent (inbox), so an event already handled is not handled twice.
 */
export async function replayDeadLetters(
  queue: DeadLetterQueue,
  { eventId, limit = 1000 }: { eventId?: string; limit?: number } = {},
): Promise<DeadLetterSummary[]> {
  const replayed: DeadLetterSummary[] = [];
  await walk(queue, limit, async (letter, _message, replay) => {
    if (eventId !== undefined && letter.eventId !== eventId) return false;
    await replay();
    replayed.push(letter);
    return true;
  });
  return replayed;
}
