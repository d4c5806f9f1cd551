export type { EventBus, EventSubscription } from './event-bus';
export { InProcessEventBus, type InProcessEventBusOptions, type DeadLetter } from './in-process-event-bus';
export {
  RabbitMqEventBus,
  DEFAULT_EXCHANGE,
  consumerQueues,
  consumerRouter,
  ROUTER_KEYS,
  deliveryAttempt,
  type RabbitMqEventBusOptions,
} from './rabbitmq-event-bus';
export { openEventBus, type OpenEventBusOptions } from './open-event-bus';
export { messagingMigrations, createOutbox, type Outbox, type NewEvent } from './outbox';
export { createWriteWithEvents, type StatementWithEvents, type WriteWithEvents } from './statement-with-events';
export { startOutboxRelay, type OutboxRelay, type OutboxRelayOptions } from './outbox-relay';
export { subscribeIdempotently, type IdempotentSubscription } from './idempotent-consumer';
export { UnprocessableEventError } from './unprocessable-event-error';
export {
  checkedAgainstCatalogue,
  eventHandlers,
  ofCompany,
  type CompanyEvent,
  type EventHandler,
  type EventHandlerMap,
  type EventHandlers,
  type EventHandlersOf,
  type EventKey,
  type EventVersion,
  type VersionedEvent,
} from './event-handlers';
export { topicMatches } from './topic-pattern';
export { listDeadLetters, replayDeadLetters, type DeadLetterQueue, type DeadLetterSummary } from './dead-letters';
export { brokerPermissionCommands, brokerPermissions, type BrokerPermissions } from './broker-permissions';
