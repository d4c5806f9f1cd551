import { eventEnvelopeSchema, type EventEnvelope } from '@whistle/contracts';
import type { Logger } from '../logging/logger';
import type { EventBus, EventSubscription } from './event-bus';
import { topicMatches } from './topic-pattern';
import { UnprocessableEventError } from './unprocessable-event-error';

export interface InProcessEventBusOptions {
  logger: Logger;
  /** Deliveries per event and consumer, the first included, before it is dead-lettered. */
  maxAttempts?: number;
  /** Delay before the first retry; it doubles with each further attempt. */
  retryDelayMs?: number;
  /** Dead letters kept in memory (the oldest are dropped beyond it; each one is also in the log). */
  maxDeadLetters?: number;
}

export interface DeadLetter {
  consumer: string;
  event: EventEnvelope;
  attempts: number;
  error: string;
}

/**
 * The standalone bus. It routes like the RabbitMQ topic exchange and delivers asynchronously (never
 * inside the publisher's call stack), with bounded retries and backoff, then a dead-letter list.
 * Delivery is in memory: an event published and not yet handled when the process stops is lost, so
 * the platform relies on its outbox for durability up to `publish`, and on this process staying up
 * after it. That is the standalone trade-off; the cluster uses RabbitMQ.
 */
export class InProcessEventBus implements EventBus {
  readonly kind = 'in-process' as const;
  private readonly subscriptions = new Map<string, EventSubscription>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly deadLettered: DeadLetter[] = [];
  private readonly maxAttempts: number;
  private readonly retryDelayMs: number;
  private closed = false;

  constructor(private readonly options: InProcessEventBusOptions) {
    this.maxAttempts = options.maxAttempts ?? 5;
    this.retryDelayMs = options.retryDelayMs ?? 200;
  }

  /** Events that exhausted their retries (or were unprocessable), oldest first. */
  get deadLetters(): readonly DeadLetter[] {
    return this.deadLettered;
  }

  async publish(event: EventEnvelope): Promise<void> {
    if (this.closed) throw new Error('The in-process event bus is closed');
    // Validated and copied as RabbitMQ would serialise it, so no consumer shares objects with the publisher.
    const wire = JSON.stringify(eventEnvelopeSchema.parse(event));
    for (const subscription of this.subscriptions.values()) {
      if (subscription.events.some((pattern) => topicMatches(pattern, event.name))) {
        this.schedule(subscription, JSON.parse(wire) as EventEnvelope, 1, 0);
      }
    }
  }

  async subscribe(subscription: EventSubscription): Promise<void> {
    if (this.closed) throw new Error('The in-process event bus is closed');
    if (this.subscriptions.has(subscription.consumer)) throw new Error(`Consumer ${subscription.consumer} is already subscribed`);
    this.subscriptions.set(subscription.consumer, subscription);
  }

  /** Stops delivering: pending retries are dropped and handlers already running are awaited. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.inFlight]);
  }

  private schedule(subscription: EventSubscription, event: EventEnvelope, attempt: number, delayMs: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const delivery = this.deliver(subscription, event, attempt).finally(() => this.inFlight.delete(delivery));
      this.inFlight.add(delivery);
    }, delayMs);
    this.timers.add(timer);
  }

  private async deliver(subscription: EventSubscription, event: EventEnvelope, attempt: number): Promise<void> {
    const fields = { consumer: subscription.consumer, eventName: event.name, eventId: event.id, attempt };
    try {
      await subscription.handle(event);
    } catch (error) {
      const retry = !(error instanceof UnprocessableEventError) && attempt < this.maxAttempts;
      if (retry && this.closed) {
        this.options.logger.warn({ ...fields, err: error }, 'Event handler failed while the bus was closing; not retried');
        return;
      }
      if (retry) {
        this.options.logger.warn({ ...fields, err: error }, 'Event handler failed; retrying');
        this.schedule(subscription, event, attempt + 1, this.retryDelayMs * 2 ** (attempt - 1));
        return;
      }
      this.deadLettered.push({ consumer: subscription.consumer, event, attempts: attempt, error: (error as Error)?.message ?? String(error) });
      if (this.deadLettered.length > (this.options.maxDeadLetters ?? 1000)) this.deadLettered.shift();
      this.options.logger.error({ ...fields, err: error }, 'Event dead-lettered');
    }
  }
}
