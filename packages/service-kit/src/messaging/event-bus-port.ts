import type { Port } from '../ports/port';
import type { EventBus } from './event-bus';
import { openEventBus } from './open-event-bus';

/** RabbitMQ (topic exchange AMQP_EXCHANGE) when AMQP_URL is set, else the in-process bus. */
export const eventBusPort: Port<EventBus> = {
  name: 'bus',
  open: (config, logger) => openEventBus({ amqpUrl: config.AMQP_URL, exchange: config.AMQP_EXCHANGE, logger }),
};
