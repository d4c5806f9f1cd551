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
  type ServiceSchema,
} from '@whistle/service-kit';
import { notificationConfigSchema, type NotificationConfig } from './config';
import { NOTIFICATION_SCHEMA, notificationMigrations } from './data-access/migrations';
import { MAIL_DISPATCH_INTERVAL_MS, mailDispatchWords, sendQueuedMails } from './domain/mail-queue/mail-dispatcher';
import { notificationEventsSubscription } from './entry-points/messaging/notification-events.subscription';

const notificationPorts = { db: databasePort, bus: eventBusPort, mailer: mailerPort };
export type NotificationDependencies = ServiceDependencies<typeof notificationPorts>;

/** Its schema and migrations: applied at start, and by `npm run migrate -- status|up` (src/migrate.ts). */
export const notificationSchema: ServiceSchema = {
  name: 'notification',
  schema: NOTIFICATION_SCHEMA,
  migrations: [notificationMigrations],
};

/** Turns events into e-mails, per company notification settings. Never puts report content in a mail. */
export function createNotificationService(given: NotificationDependencies, config: NotificationConfig): WhistleService {
  // Its tenant scopes run as the notification schema's own tenant role (docs/security.md, "Tenant isolation").
  const deps = { ...given, db: serviceDatabase(given.db, NOTIFICATION_SCHEMA) };
  const lifecycle = createServiceLifecycle({
    ...notificationSchema,
    deps,
    subscriptions: [notificationEventsSubscription({ publicUrl: config.PUBLIC_URL })],
  });
  lifecycle.periodic({
    name: 'mail-dispatcher',
    run: () => sendQueuedMails({ db: deps.db, mailer: deps.mailer }),
    intervalMs: MAIL_DISPATCH_INTERVAL_MS,
    words: mailDispatchWords,
  });
  return {
    name: 'notification',
    router: Router(),
    start: () => lifecycle.start(),
    stop: () => lifecycle.stop(),
  };
}

export const notificationServiceDefinition = defineService({
  name: 'notification',
  configSchema: notificationConfigSchema,
  ports: notificationPorts,
  create: createNotificationService,
});
