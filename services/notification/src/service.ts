import { Router } from 'express';
import { mailerPort } from '@whistle/mailer';
import {
  createServiceLifecycle,
  databasePort,
  defineService,
  eventBusPort,
  type ServiceDependencies,
  type WhistleService,
} from '@whistle/service-kit';
import { notificationConfigSchema, type NotificationConfig } from './config';
import { NOTIFICATION_SCHEMA, notificationMigrations } from './data-access/migrations';
import { companyEventsSubscription } from './entry-points/messaging/company-events.subscription';

const notificationPorts = { db: databasePort, bus: eventBusPort, mailer: mailerPort };
export type NotificationDependencies = ServiceDependencies<typeof notificationPorts>;

/** Turns events into e-mails, per company notification settings. Never puts report content in a mail. */
export function createNotificationService(deps: NotificationDependencies, config: NotificationConfig): WhistleService {
  const lifecycle = createServiceLifecycle({
    name: 'notification',
    schema: NOTIFICATION_SCHEMA,
    migrations: notificationMigrations,
    deps,
    subscriptions: [companyEventsSubscription({ mailer: deps.mailer, publicUrl: config.PUBLIC_URL })],
  });
  return { name: 'notification', router: Router(), start: lifecycle.start, stop: lifecycle.stop };
}

export const notificationServiceDefinition = defineService({
  name: 'notification',
  configSchema: notificationConfigSchema,
  ports: notificationPorts,
  create: createNotificationService,
});
