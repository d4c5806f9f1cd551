import type { PlatformConfig } from './config/platform-config';
import { openDatabase } from './database/open-database';
import type { Logger } from './logging/logger';
import { openMailer } from './mail/open-mailer';
import { openEventBus } from './messaging/open-event-bus';
import { openObjectStore } from './objects/open-object-store';
import type { ServiceDependencies } from './service';

/**
 * Opens each port with the adapter the configuration selects (see platformConfigSchema). If one
 * fails, those already open are closed again, so a failed start leaves no connection behind.
 */
export async function openDependencies(config: PlatformConfig, logger: Logger): Promise<ServiceDependencies> {
  const opened: { close(): Promise<void> }[] = [];
  try {
    const db = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, logger });
    opened.push(db);
    const bus = await openEventBus({ amqpUrl: config.AMQP_URL, exchange: config.AMQP_EXCHANGE, logger });
    opened.push(bus);
    const objects = await openObjectStore(config);
    opened.push(objects);
    const mailer = openMailer(config, logger);
    return { logger, db, bus, objects, mailer };
  } catch (error) {
    for (const dependency of opened.reverse()) await dependency.close().catch(() => undefined);
    throw error;
  }
}

/**
 * Closes every port, consumers of the database first (bus, mail, objects), the database last.
 * Each is closed even if an earlier one fails; the first failure is then rethrown.
 */
export async function closeDependencies(deps: ServiceDependencies): Promise<void> {
  const failures: unknown[] = [];
  for (const dependency of [deps.bus, deps.mailer, deps.objects, deps.db]) {
    await dependency.close().catch((error: unknown) => failures.push(error));
  }
  if (failures.length > 0) throw failures[0];
}
