/* eslint-disable max-lines -- one adapter: connection recovery, consumer set-up and settling deliveries share its channel state. */
import amqplib, {
  type ChannelModel,
  type ConfirmChannel,
  type ConsumeMessage,
  type Options,
  type RecoveringChannelModel,
} from 'amqplib';
import { eventEnvelopeSchema, type EventEnvelope } from '@whistle/contracts';
import type { Logger } from '../logging/logger';
import type { EventBus, EventSubscription } from './event-bus';
import { UnprocessableEventError } from './unprocessable-event-error';
import { redactUrl } from '../logging/redact-url';
import { inConsumeSpan } from '../tracing/messaging-spans';
import { contextFromTraceContext, traceContextOf } from '../tracing/trace-context';
import { eventsConsumed, readQueueConsumers, readQueueMessages, sharedReading } from '../metrics/metrics';

export const DEFAULT_EXCHANGE = 'whistle.events';

/** Delivery attempt counter carried by retried messages (the first delivery has none). */
export const ATTEMPT_HEADER = 'x-whistle-attempt';
/** Why a message was dead-lettered, for whoever inspects the DLQ. */
export const ERROR_HEADER = 'x-whistle-error';

const CONSUMER_NAME = /^[a-z0-9][a-z0-9_.-]{0,200}$/;

/**
 * The queues of `consumer` on `exchange`. Named after the exchange, so two deployments sharing a vhost
 * (each with its own AMQP_EXCHANGE) never take each other's events, and their teardown never touches
 * the other's queues. `retry` is `….backoff`: the `….retry` queue of earlier releases dead-lettered through the
 * default exchange, which would let every broker user write into any queue (docs/operations.md, "Broker users").
 */
export function consumerQueues(exchange: string, consumer: string): { main: string; retry: string; dlq: string } {
  const main = `${exchange}.${consumer}`;
  return { main, retry: `${main}.backoff`, dlq: `${main}.dlq` };
}

/**
 * The consumer's own direct exchange, which moves its messages between its queues (routing keys `main`, `backoff`,
 * `dlq`): a failed event to `backoff` or `dlq`, a waited-out one back to `main`, a replayed dead letter to `main`.
 * Only the consumer's broker user may write to it, so no service needs the default exchange, through which it could
 * put anything into any queue.
 */
export function consumerRouter(exchange: string, consumer: string): string {
  return `${exchange}.${consumer}.router`;
}

/** The routing keys of consumerRouter: each one binds the queue of the same role. */
export const ROUTER_KEYS = { main: 'main', retry: 'backoff', dlq: 'dlq' } as const;

/**
 * The delivery attempt a message is on. The header is ours, but a message can arrive with anything in it
 * (published by hand, by another tool, or tampered with): anything but a positive integer counts as the
 * first attempt, so the retry path always has a number to write and the attempts stay bounded.
 */
export function deliveryAttempt(headerValue: unknown): number {
  const attempt = typeof headerValue === 'number' ? headerValue : Number(String(headerValue ?? ''));
  return Number.isSafeInteger(attempt) && attempt >= 1 ? attempt : 1;
}

export interface RabbitMqEventBusOptions {
  url: string;
  logger: Logger;
  /** Durable topic exchange every service publishes to. */
  exchange?: string;
  /**
   * Unacknowledged deliveries per consumer, i.e. how many events one consumer has at once: 64 by default, two
   * of its transactions' worth (subscribeIdempotently handles up to 32 events delivered together in one).
   */
  prefetch?: number;
  /** Deliveries per event and consumer, the first included, before it goes to the consumer's DLQ. */
  maxAttempts?: number;
  /**
   * How long a failed event waits in the consumer's retry queue before it returns to its main queue.
   * It is the queue's TTL, fixed when the queue is first declared: changing it later needs that queue
   * deleted (RabbitMQ refuses to redeclare a queue with other arguments).
   */
  retryDelayMs?: number;
  /** A publish not confirmed by the broker within this time fails (the outbox keeps the event). */
  confirmTimeoutMs?: number;
  /** Connection attempts at start-up before `connect` gives up; once connected, reconnection never stops. */
  initialConnectRetries?: number;
  /**
   * The AMQP heartbeat asked for, unless the URL names one (`?heartbeat=`). A broker that stops answering
   * without a reset (a black-holed network) is taken for lost after two silent periods.
   */
  heartbeatSeconds?: number;
  /** How long opening a connection (TCP and the AMQP handshake) may take before that attempt fails. */
  connectTimeoutMs?: number;
}

/**
 * 15 s: a black-holed broker is noticed within 30 s (the broker's own default, 60 s, would take two minutes),
 * while a busy event loop stays far from missing two beats.
 */
export const DEFAULT_HEARTBEAT_SECONDS = 15;
const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

/** `url` with the heartbeat asked for, unless it names its own. */
export function withHeartbeat(url: string, seconds: number): string {
  const parsed = new URL(url);
  if (parsed.searchParams.has('heartbeat')) return url;
  parsed.searchParams.set('heartbeat', String(seconds));
  return parsed.toString();
}

interface ConsumerState {
  subscription: EventSubscription;
  /** The connection the consumer currently runs on, and its set-up. */
  model?: ChannelModel;
  ready?: Promise<void>;
  channel?: ConfirmChannel;
  consumerTag?: string;
}

/**
 * The cluster bus over RabbitMQ: a durable topic exchange; publishes on a confirm channel (persistent,
 * messageId = event id, type = event name) resolve once the broker has the message; each consumer owns a
 * durable queue `${exchange}.${consumer}` bound to its event patterns, acknowledged after its handler
 * resolves. A failed event is republished to `….backoff`, whose TTL sends it back to the main queue, until
 * `maxAttempts`; then (or at once when malformed or unprocessable) it goes to `….dlq` (consumerQueues), both through
 * the consumer's own router exchange (consumerRouter).
 * A lost connection is re-established with backoff and every consumer is set up again.
 */
export class RabbitMqEventBus implements EventBus {
  readonly kind = 'rabbitmq' as const;
  private readonly consumers = new Map<string, ConsumerState>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly restartTimers = new Set<NodeJS.Timeout>();
  private readonly connectWaiters = new Set<{
    resolve: (model: ChannelModel) => void;
    reject: (error: Error) => void;
  }>();
  private model?: ChannelModel;
  private publisher?: Promise<ConfirmChannel>;
  private closing = false;
  private readonly exchange: string;
  private readonly prefetch: number;
  private readonly maxAttempts: number;
  private readonly retryDelayMs: number;
  private readonly confirmTimeoutMs: number;
  private readonly logger: Logger;
  private connection!: RecoveringChannelModel;
  private readonly stopMetrics: (() => void)[] = [];

  private constructor(options: RabbitMqEventBusOptions) {
    this.exchange = options.exchange ?? DEFAULT_EXCHANGE;
    this.prefetch = options.prefetch ?? 64;
    this.maxAttempts = options.maxAttempts ?? 5;
    this.retryDelayMs = options.retryDelayMs ?? 5000;
    this.confirmTimeoutMs = options.confirmTimeoutMs ?? 10000;
    this.logger = options.logger;
  }

  /** Connects (retrying a few times at start-up) and declares the exchange. */
  static async connect(options: RabbitMqEventBusOptions): Promise<RabbitMqEventBus> {
    const bus = new RabbitMqEventBus(options);
    try {
      bus.connection = await amqplib.connect(
        withHeartbeat(options.url, options.heartbeatSeconds ?? DEFAULT_HEARTBEAT_SECONDS),
        {
          // A connection attempt into a black hole would otherwise wait for ever, and reconnection with it.
          timeout: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
          recovery: {
            initialDelay: 200,
            maxDelay: 5000,
            maxRetries: Infinity,
            initialMaxRetries: options.initialConnectRetries ?? 3,
            setup: (model: ChannelModel) => bus.setUp(model),
          },
        },
      );
    } catch (error) {
      throw new Error(`Cannot connect to RabbitMQ at ${redactUrl(options.url)}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    bus.connection.on('disconnect', (error: Error) => {
      bus.model = undefined;
      bus.publisher = undefined;
      bus.logger.warn({ err: error }, 'RabbitMQ connection lost; reconnecting');
    });
    bus.connection.on('connect', () => bus.logger.info({ exchange: bus.exchange }, 'RabbitMQ reconnected'));
    // The outage was logged when the connection was lost: each retry is only a debug line.
    bus.connection.on('connect-failed', (error: Error) =>
      bus.logger.debug({ reason: error.message }, 'RabbitMQ connection attempt failed'),
    );
    // Without a listener an 'error' event would crash the process; the close that follows triggers recovery
    // and is the one warning of the outage.
    bus.connection.on('error', (error: Error) =>
      bus.logger.debug({ reason: error.message }, 'RabbitMQ connection error'),
    );
    bus.logger.info({ exchange: bus.exchange }, 'RabbitMQ connected');
    bus.stopMetrics.push(
      readQueueMessages(async () =>
        (await bus.queueDepths()).flatMap(({ consumer, depths }) =>
          depths.map(({ queue, messages }) => ({ labels: { consumer, queue }, value: messages })),
        ),
      ),
      readQueueConsumers(async () =>
        (await bus.queueDepths()).map(({ consumer, consumers }) => ({ labels: { consumer }, value: consumers })),
      ),
    );
    return bus;
  }

  /**
   * Depth of each subscribed consumer's queues as the broker counts them (a passive declare each), read when
   * Prometheus scrapes; a scrape reads both gauges, so one reading serves both.
   */
  private queueDepths = sharedReading(async () => {
    if (!this.model || this.consumers.size === 0) return [];
    const channel = await this.model.createChannel();
    // A queue deleted under us closes the channel with a 404: that scrape leaves the series out.
    channel.on('error', () => undefined);
    try {
      const readings = [];
      for (const consumer of this.consumers.keys()) {
        const queues = consumerQueues(this.exchange, consumer);
        const main = await channel.checkQueue(queues.main);
        const retry = await channel.checkQueue(queues.retry);
        const dlq = await channel.checkQueue(queues.dlq);
        readings.push({
          consumer,
          consumers: main.consumerCount,
          depths: [
            { queue: 'main', messages: main.messageCount },
            { queue: 'retry', messages: retry.messageCount },
            { queue: 'dlq', messages: dlq.messageCount },
          ],
        });
      }
      return readings;
    } finally {
      await channel.close().catch(() => undefined);
    }
  });

  /** Whether the broker connection is up now (readiness): events are published and consumed only then. */
  isConnected(): boolean {
    return !this.closing && this.model !== undefined;
  }

  async publish(event: EventEnvelope): Promise<void> {
    const envelope = eventEnvelopeSchema.parse(event);
    const channel = await this.publisherChannel();
    // The publishing span's W3C trace context (traceparent, tracestate), which consumers continue; retries and
    // dead letters keep the headers of the message they copy.
    const traceContext = traceContextOf();
    const properties: Options.Publish = {
      persistent: true,
      messageId: envelope.id,
      type: envelope.name,
      contentType: 'application/json',
      ...(traceContext ? { headers: { ...traceContext } } : {}),
    };
    await this.confirmed(`event ${envelope.name} ${envelope.id}`, (done) =>
      channel.publish(this.exchange, envelope.name, Buffer.from(JSON.stringify(envelope)), properties, done),
    );
  }

  async subscribe(subscription: EventSubscription): Promise<void> {
    const { consumer } = subscription;
    if (this.closing) throw new Error('The RabbitMQ event bus is closed');
    if (!CONSUMER_NAME.test(consumer))
      throw new Error(`Invalid consumer name ${JSON.stringify(consumer)}: expected ${CONSUMER_NAME.source}`);
    if (this.consumers.has(consumer)) throw new Error(`Consumer ${consumer} is already subscribed`);
    if (subscription.events.length === 0) throw new Error(`Consumer ${consumer} subscribes to no event`);
    const state: ConsumerState = { subscription };
    this.consumers.set(consumer, state);
    try {
      await this.ensureConsumer(this.model ?? (await this.nextConnection()), state);
    } catch (error) {
      this.consumers.delete(consumer);
      throw error;
    }
  }

  /** Stops consuming, waits for the handlers already running, then closes the connection. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    for (const stop of this.stopMetrics) stop();
    for (const timer of this.restartTimers) clearTimeout(timer);
    for (const waiter of this.connectWaiters) waiter.reject(new Error('The RabbitMQ event bus is closed'));
    await Promise.allSettled(
      [...this.consumers.values()].map((state) =>
        state.channel && state.consumerTag ? state.channel.cancel(state.consumerTag) : undefined,
      ),
    );
    await Promise.allSettled([...this.inFlight]);
    this.model = undefined;
    this.publisher = undefined;
    await this.connection.close();
  }

  /** Runs on every (re)connection, before the connection is handed out: exchange, then every consumer. */
  private async setUp(model: ChannelModel): Promise<void> {
    await ensureExchange(model, this.exchange, 'topic');
    await Promise.all([...this.consumers.values()].map((state) => this.ensureConsumer(model, state)));
    this.model = model;
    this.publisher = undefined;
    for (const waiter of this.connectWaiters) waiter.resolve(model);
    this.connectWaiters.clear();
  }

  private nextConnection(): Promise<ChannelModel> {
    return new Promise((resolve, reject) => this.connectWaiters.add({ resolve, reject }));
  }

  private publisherChannel(): Promise<ConfirmChannel> {
    if (this.closing) return Promise.reject(new Error('The RabbitMQ event bus is closed'));
    const model = this.model;
    // Fail at once rather than wait: the outbox relay keeps the event and tries again on its next tick.
    if (!model) return Promise.reject(new Error('RabbitMQ is not connected; the event was not published'));
    if (!this.publisher) {
      const opening = model.createConfirmChannel().then((channel) => {
        channel.on('error', (error: Error) => this.logger.warn({ err: error }, 'RabbitMQ publish channel error'));
        channel.on('close', () => {
          if (this.publisher === opening) this.publisher = undefined;
        });
        return channel;
      });
      opening.catch(() => {
        if (this.publisher === opening) this.publisher = undefined;
      });
      this.publisher = opening;
    }
    return this.publisher;
  }

  /** Sets the consumer up on `model` once, however many callers ask (set-up on reconnect and subscribe may race). */
  private ensureConsumer(model: ChannelModel, state: ConsumerState): Promise<void> {
    if (state.model === model && state.ready) return state.ready;
    state.model = model;
    state.channel = undefined;
    const ready = this.startConsumer(model, state);
    state.ready = ready;
    ready.catch(() => {
      if (state.ready === ready) {
        state.model = undefined;
        state.ready = undefined;
      }
    });
    return ready;
  }

  private async startConsumer(model: ChannelModel, state: ConsumerState): Promise<void> {
    const { consumer, events } = state.subscription;
    const channel = await model.createConfirmChannel();
    channel.on('error', (error: Error) =>
      this.logger.warn({ consumer, err: error }, 'RabbitMQ consumer channel error'),
    );
    channel.on('close', () => this.onConsumerChannelClosed(model, state, channel));
    const queues = consumerQueues(this.exchange, consumer);
    const router = consumerRouter(this.exchange, consumer);
    await ensureExchange(model, this.exchange, 'topic');
    await channel.assertExchange(router, 'direct', { durable: true });
    await channel.assertQueue(queues.main, { durable: true });
    await channel.assertQueue(queues.retry, {
      durable: true,
      arguments: {
        'x-message-ttl': this.retryDelayMs,
        'x-dead-letter-exchange': router,
        'x-dead-letter-routing-key': ROUTER_KEYS.main,
      },
    });
    await channel.assertQueue(queues.dlq, { durable: true });
    for (const role of ['main', 'retry', 'dlq'] as const)
      await channel.bindQueue(queues[role], router, ROUTER_KEYS[role]);
    for (const pattern of events) await channel.bindQueue(queues.main, this.exchange, pattern);
    await channel.prefetch(this.prefetch);
    const { consumerTag } = await channel.consume(queues.main, (message) => {
      if (!message) return; // Cancelled by the broker (queue deleted): the channel-close path restarts it.
      const delivery = this.handleDelivery(channel, state, message).finally(() => this.inFlight.delete(delivery));
      this.inFlight.add(delivery);
    });
    state.channel = channel;
    state.consumerTag = consumerTag;
  }

  /** A consumer channel closed while its connection lives on (e.g. a channel error): start it again shortly. */
  private onConsumerChannelClosed(model: ChannelModel, state: ConsumerState, channel: ConfirmChannel): void {
    if (state.channel !== channel) return;
    state.channel = undefined;
    state.model = undefined;
    state.ready = undefined;
    if (this.closing || this.model !== model) return; // Connection loss: recovery sets every consumer up again.
    const timer = setTimeout(() => {
      this.restartTimers.delete(timer);
      if (this.closing || this.model !== model) return;
      this.ensureConsumer(model, state).catch((error) =>
        this.logger.error(
          { consumer: state.subscription.consumer, err: error },
          'RabbitMQ consumer could not be restarted',
        ),
      );
    }, 1000);
    this.restartTimers.add(timer);
  }

  private async handleDelivery(channel: ConfirmChannel, state: ConsumerState, message: ConsumeMessage): Promise<void> {
    const { consumer, handle } = state.subscription;
    const attempt = deliveryAttempt(message.properties.headers?.[ATTEMPT_HEADER]);
    const fields = {
      consumer,
      eventName: message.properties.type as unknown,
      eventId: message.properties.messageId as unknown,
      attempt,
    };
    try {
      let event: EventEnvelope;
      try {
        event = eventEnvelopeSchema.parse(JSON.parse(message.content.toString('utf8')));
      } catch {
        this.logger.error(fields, 'Malformed event message; dead-lettered');
        await this.forward(channel, consumer, 'dlq', message, { [ERROR_HEADER]: 'malformed event envelope' });
        channel.ack(message);
        eventsConsumed.inc({ consumer, outcome: 'dead_lettered' });
        return;
      }
      // The broker lets a service's user publish only its own events' routing keys (topic permissions): an event
      // from the shared exchange counts only under the routing key it was let through with.
      if (message.fields.exchange === this.exchange && message.fields.routingKey !== event.name) {
        this.logger.error(
          { ...fields, routingKey: message.fields.routingKey },
          'Event published under another routing key than its name; dead-lettered',
        );
        await this.forward(channel, consumer, 'dlq', message, { [ERROR_HEADER]: 'routing key is not the event name' });
        channel.ack(message);
        eventsConsumed.inc({ consumer, outcome: 'dead_lettered' });
        return;
      }
      try {
        const parent = contextFromTraceContext(message.properties.headers);
        await inConsumeSpan({ system: this.kind, consumer, event, attempt, parent }, () => handle(event));
        channel.ack(message);
        eventsConsumed.inc({ consumer, outcome: 'handled' });
        return;
      } catch (error) {
        const errorText = ((error as Error)?.message ?? String(error)).slice(0, 500);
        if (error instanceof UnprocessableEventError || attempt >= this.maxAttempts) {
          this.logger.error({ ...fields, err: error }, 'Event dead-lettered');
          await this.forward(channel, consumer, 'dlq', message, {
            [ATTEMPT_HEADER]: attempt,
            [ERROR_HEADER]: errorText,
          });
          eventsConsumed.inc({ consumer, outcome: 'dead_lettered' });
        } else {
          this.logger.warn({ ...fields, err: error }, 'Event handler failed; retrying');
          await this.forward(channel, consumer, 'retry', message, {
            [ATTEMPT_HEADER]: attempt + 1,
            [ERROR_HEADER]: errorText,
          });
          eventsConsumed.inc({ consumer, outcome: 'retried' });
        }
        channel.ack(message);
      }
    } catch (error) {
      // Not acknowledged: the broker redelivers the message once this channel is gone, so nothing is lost.
      this.logger.warn({ ...fields, err: error }, 'RabbitMQ delivery could not be settled; it will be redelivered');
    }
  }

  /** Republishes a delivery to a queue of this consumer, through its router, and waits for the broker's confirm. */
  private forward(
    channel: ConfirmChannel,
    consumer: string,
    queue: 'retry' | 'dlq',
    message: ConsumeMessage,
    headers: Record<string, unknown>,
  ): Promise<void> {
    const { properties } = message;
    const options: Options.Publish = {
      persistent: true,
      messageId: properties.messageId as string | undefined,
      type: properties.type as string | undefined,
      contentType: properties.contentType as string | undefined,
      headers: { ...properties.headers, ...headers },
    };
    return this.confirmed(`forward to ${queue}`, (done) =>
      channel.publish(consumerRouter(this.exchange, consumer), ROUTER_KEYS[queue], message.content, options, done),
    );
  }

  private confirmed(what: string, send: (done: (error: unknown) => void) => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`RabbitMQ did not confirm ${what} within ${this.confirmTimeoutMs} ms`)),
        this.confirmTimeoutMs,
      );
      try {
        send((error) => {
          clearTimeout(timer);
          if (error) reject(new Error(`RabbitMQ rejected ${what}`, { cause: error }));
          else resolve();
        });
      } catch (error) {
        clearTimeout(timer);
        reject(error);
      }
    });
  }
}

/**
 * Declares `name` only when it is missing: redeclaring an existing exchange needs the `configure` permission, which
 * a service's broker user has only on its own queues and router, not on the shared exchange (which it could then
 * delete). A passive check needs none; it closes its channel when the exchange is missing, hence a channel of its own.
 */
async function ensureExchange(model: ChannelModel, name: string, type: 'topic' | 'direct'): Promise<void> {
  const probe = await model.createChannel();
  probe.on('error', () => undefined);
  try {
    await probe.checkExchange(name);
    await probe.close();
    return;
  } catch {
    // 404: missing. The channel is closed by the broker.
  }
  const channel = await model.createChannel();
  await channel.assertExchange(name, type, { durable: true });
  await channel.close();
}
