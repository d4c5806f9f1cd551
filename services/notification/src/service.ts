import { Router } from 'express';
import { mailerPort } from '@whistle/mailer';
import {
  createServiceLifecycle,
  databasePort,
  defineService,
  eventBusPort,
  serviceDatabase,
  type ServiceDependencies,
  type WhistleService,
} from '@whistle/service-kit';
import { notificationConfigSchema, type NotificationConfig } from './config';
import { NOTIFICATION_SCHEMA, notificationMigrations } from './data-access/migrations';
import { startMailDispatcher, type MailDispatcher } from './domain/mail-queue/mail-dispatcher';
import { notificationEventsSubscription } from './entry-points/messaging/notification-events.subscription';

const notificationPorts = { db: databasePort, bus: eventBusPort, mailer: mailerPort };
export type NotificationDependencies = ServiceDependencies<typeof notificationPorts>;

/** Turns events into e-mails, per company notification settings. Never puts report content in a mail. */
export function createNotificationService(given: NotificationDependencies, config: NotificationConfig): WhistleService {
  // Its tenant scopes run as the notification schema's own tenant role (docs/security.md, "Tenant isolation").
  const deps = { ...given, db: serviceDatabase(given.db, NOTIFICATION_SCHEMA) };
  const lifecycle = createServiceLifecycle({
    name: 'notification',
    schema: NOTIFICATION_SCHEMA,
    migrations: [notificationMigrations],
    deps,
    subscriptions: [notificationEventsSubscription({ publicUrl: config.PUBLIC_URL })],
  });
  let dispatcher: MailDispatcher | undefined;
  return {
    name: 'notification',
    router: Router(),
    async start() {
      await lifecycle.start();
      dispatcher = startMailDispatcher({
        db: deps.db,
        mailer: deps.mailer,
        logger: deps.logger.child({ service: 'notification' }),
      });
    },
    async stop() {
      await dispatcher?.stop();
      await lifecycle.stop();
    },
  };
}

export const notificationServiceDefinition = defineService({
  name: 'notification',
  configSchema: notificationConfigSchema,
  ports: notificationPorts,
  create: createNotificationService,
});
