import type { Router } from 'express';
import type { Database } from './database/database';
import type { EventBus } from './messaging/event-bus';
import type { ObjectStore } from './objects/object-store';
import type { Mailer } from './mail/mailer';
import type { Logger } from './logging/logger';

/**
 * What every service receives. `runService` (cluster: one process per service) opens each port from
 * configuration; the standalone server opens one of each and hands the same instances to all services.
 */
export interface ServiceDependencies {
  logger: Logger;
  db: Database;
  bus: EventBus;
  objects: ObjectStore;
  mailer: Mailer;
}

/** A running unit of the platform: its HTTP routes (absolute paths, e.g. `/api/account/...`) and its lifecycle. */
export interface WhistleService {
  readonly name: string;
  readonly router: Router;
  /**
   * Request body types its routes read themselves (a streamed upload), besides JSON and forms; the
   * HTTP app answers 415 to any other type and must not parse these.
   */
  readonly extraContentTypes?: readonly string[];
  /** Runs migrations, subscribes consumers, starts the outbox relay. */
  start(): Promise<void>;
  /** Stops consumers and the relay; does not close shared dependencies. */
  stop(): Promise<void>;
}
