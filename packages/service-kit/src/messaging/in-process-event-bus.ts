import { context } from '@opentelemetry/api';
import { eventEnvelopeSchema, type EventEnvelope } from '@whistle/contracts';
import type { Logger } from '../logging/logger';
import type { EventBus, EventSubscription } from './event-bus';
import { topicMatches } from './topic-pattern';
import { UnprocessableEventError } from './unprocessable-event-error';
import { eventsConsumed } from '../metrics/metrics';
import { inConsumeSpan } from '../tracing/messaging-spans';

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
 * `publish` resolves only once every matching consumer has handled the event (or dead-lettered it),
 * the in-memory counterpart of a broker's confirm: the outbox relay marks a row published only then,
 * so an event whose delivery a crash interrupts is published again at the next start and the
 * consumers' inboxes drop what they had already done.
 */
export class InProcessEventBus implements EventBus {
  readonly kind = 'in-process' as const;
  private readonly subscriptions = new Map<string, EventSubscription>();
  private readonly waits = new Map<NodeJS.Timeout, () => void>();
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
    const deliveries = [...this.subscriptions.values()]
      .filter((subscription) => subscription.events.some((pattern) => topicMatches(pattern, event.name)))
      .map((subscription) => this.track(this.deliver(subscription, JSON.parse(wire) as EventEnvelope)));
    await Promise.all(deliveries);
  }

  async subscribe(subscription: EventSubscription): Promise<void> {
    if (this.closed) throw new Error('The in-process event bus is closed');
    if (this.subscriptions.has(subscription.consumer))
      throw new Error(`Consumer ${subscription.consumer} is already subscribed`);
    this.subscriptions.set(subscription.consumer, subscription);
  }

  /**
   * Stops delivering: waiting retries end at once (their `publish` rejects, so the outbox keeps the
   * event for the next start) and handlers already running are awaited.
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const [timer, resume] of this.waits) {
      clearTimeout(timer);
      resume();
    }
    this.waits.clear();
    await Promise.allSettled([...this.inFlight]);
  }

  private track(delivery: Promise<void>): Promise<void> {
    this.inFlight.add(delivery);
    void delivery.catch(() => undefined).finally(() => this.inFlight.delete(delivery));
    return delivery;
  }

  private wait(delayMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waits.delete(timer);
        resolve();
      }, delayMs);
      this.waits.set(timer, resolve);
    });
  }

  /** Resolves when the consumer handled the event or it was dead-lettered; rejects if the bus closed first. */
  private async deliver(subscription: EventSubscription, event: EventEnvelope): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      await this.wait(attempt === 1 ? 0 : this.retryDelayMs * 2 ** (attempt - 2));
      if (this.closed)
        throw new Error(`The in-process event bus closed before ${subscription.consumer} handled the event`);
      const fields = { consumer: subscription.consumer, eventName: event.name, eventId: event.id, attempt };
      try {
        // Delivered in the publisher's async context: the relay's publish span is the parent.
        await inConsumeSpan(
          { system: this.kind, consumer: subscription.consumer, event, attempt, parent: context.active() },
          () => subscription.handle(event),
        );
        eventsConsumed.inc({ consumer: subscription.consumer, outcome: 'handled' });
        return;
      } catch (error) {
        if (!(error instanceof UnprocessableEventError) && attempt < this.maxAttempts) {
          this.options.logger.warn({ ...fields, err: error }, 'Event handler failed; retrying');
          eventsConsumed.inc({ consumer: subscription.consumer, outcome: 'retried' });
          continue;
        }
        eventsConsumed.inc({ consumer: subscription.consumer, outcome: 'dead_lettered' });
        this.deadLettered.push({
          consumer: subscription.consumer,
          event,
          attempts: attempt,
          error: (error as Error)?.message ?? String(error),
        });
        if (this.deadLettered.length > (this.options.maxDeadLetters ?? 1000)) this.deadLettered.shift();
        this.options.logger.error({ ...fields, err: error }, 'Event dead-lettered');
        return;
      }
    }
  }
}
