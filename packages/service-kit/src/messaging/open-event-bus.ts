import type { Logger } from '../logging/logger';
import type { EventBus } from './event-bus';
import { InProcessEventBus } from './in-process-event-bus';
import { RabbitMqEventBus } from './rabbitmq-event-bus';

export interface OpenEventBusOptions {
  /** RabbitMQ URL (cluster). When absent, the in-process bus is used. */
  amqpUrl?: string;
  /** Topic exchange name; `whistle.events` by default. */
  exchange?: string;
  logger: Logger;
}

/** RabbitMQ when a URL is configured, else the in-process bus (standalone). */
export function openEventBus(options: OpenEventBusOptions): Promise<EventBus> {
  if (options.amqpUrl)
    return RabbitMqEventBus.connect({ url: options.amqpUrl, exchange: options.exchange, logger: options.logger });
  return Promise.resolve(new InProcessEventBus({ logger: options.logger }));
}
