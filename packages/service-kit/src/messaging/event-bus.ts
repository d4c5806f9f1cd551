import type { EventEnvelope } from '@whistle/contracts';

export interface EventSubscription {
  /** Durable name of the consumer, e.g. `audit`. One queue (and one inbox key) per consumer. */
  consumer: string;
  /** Event names this consumer receives, e.g. `['company.created']`, or `['#']` for all. */
  events: readonly string[];
  /** Resolve to acknowledge; throw to have the event retried (bounded), then dead-lettered. */
  handle(event: EventEnvelope): Promise<void>;
}

/**
 * The EventBus port. Two adapters: in-process (standalone) and RabbitMQ via amqplib (topic exchange,
 * publisher confirms, per-consumer durable queue, bounded retries then a dead-letter queue).
 * Services never call `publish` directly: they write to their outbox in the business transaction and
 * the outbox relay publishes.
 */
export interface EventBus {
  readonly kind: 'in-process' | 'rabbitmq';
  /** Resolves once the broker has confirmed the event (persisted). */
  publish(event: EventEnvelope): Promise<void>;
  subscribe(subscription: EventSubscription): Promise<void>;
  close(): Promise<void>;
}
