import { NotReadyError } from '../http/health';
import type { Port } from '../ports/port';
import type { EventBus } from './event-bus';
import { openEventBus } from './open-event-bus';
import { RabbitMqEventBus } from './rabbitmq-event-bus';

/**
 * RabbitMQ (topic exchange AMQP_EXCHANGE) when AMQP_URL is set, else the in-process bus. Ready while the
 * broker connection is up: during an outage writes still succeed (the outbox keeps their events), but
 * the process is honest that events neither leave nor arrive.
 */
export const eventBusPort: Port<EventBus> = {
  name: 'bus',
  open: (config, logger) => openEventBus({ amqpUrl: config.AMQP_URL, exchange: config.AMQP_EXCHANGE, logger }),
  ready: async (bus) => {
    if (bus instanceof RabbitMqEventBus && !bus.isConnected()) throw new NotReadyError('RabbitMQ is not connected');
  },
};
