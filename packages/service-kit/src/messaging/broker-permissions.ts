import { consumerQueues, consumerRouter } from './rabbitmq-event-bus';

/**
 * What one service's RabbitMQ user may do (docs/operations.md, "Broker users"), as RabbitMQ's regular expressions:
 * - configure (declare, delete): its own queues and router, not the shared exchange (which it could delete);
 * - write: the shared exchange (topic permissions then let only its own events' routing keys through), its queues
 *   (binding them) and its router (moving its failed events); never the default exchange, which reaches any queue;
 * - read: the shared exchange (binding its queue to the events it consumes) and its own queues and router.
 * Consumers take an event from the shared exchange only under the routing key of its name (RabbitMqEventBus), so the
 * topic permission decides which events a user can publish.
 */
export interface BrokerPermissions {
  configure: string;
  write: string;
  read: string;
  topic: { exchange: string; write: string; read: string };
}

/** RabbitMQ's patterns are PCRE: a name matches itself only with its metacharacters escaped. */
function literal(name: string): string {
  return name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function brokerPermissions({
  exchange,
  consumer,
  publishes,
}: {
  /** AMQP_EXCHANGE of the deployment. */
  exchange: string;
  /** The service's consumer name (its queues' names): the service's own name. */
  consumer: string;
  /** The event names it publishes (`eventProducers` of @whistle/contracts). */
  publishes: readonly string[];
}): BrokerPermissions {
  const queues = consumerQueues(exchange, consumer);
  const own = [queues.main, queues.retry, queues.dlq, consumerRouter(exchange, consumer)].map(literal).join('|');
  const sharedAndOwn = `^(${literal(exchange)}|${own})$`;
  return {
    configure: `^(${own})$`,
    write: sharedAndOwn,
    read: sharedAndOwn,
    topic: {
      exchange,
      // (?!) never matches: a service that publishes nothing gets no routing key at all, not even the empty one.
      write: publishes.length > 0 ? `^(${publishes.map(literal).join('|')})$` : '^(?!)$',
      read: '.*',
    },
  };
}

/** The rabbitmqctl commands that give `user` (created beforehand) its permissions in `vhost`. */
export function brokerPermissionCommands(options: {
  vhost: string;
  user: string;
  exchange: string;
  consumer: string;
  publishes: readonly string[];
}): string[] {
  const { configure, write, read, topic } = brokerPermissions(options);
  return [
    `rabbitmqctl set_permissions -p ${options.vhost} ${options.user} '${configure}' '${write}' '${read}'`,
    `rabbitmqctl set_topic_permissions -p ${options.vhost} ${options.user} ${topic.exchange} '${topic.write}' '${topic.read}'`,
  ];
}
