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
import { startMailDispatcher, type MailDispatcher } from './domain/mail-queue/mail-dispatcher';
import { notificationEventsSubscription } from './entry-points/messaging/notification-events.subscription';

const notificationPorts = { db: databasePort, bus: eventBusPort, mailer: mailerPort };
export type NotificationDependencies = ServiceDependencies<typeof notificationPorts>;

/** Turns events into e-mails, per company notification settings. Never puts report content in a mail. */
export function createNotificationService(deps: NotificationDependencies, config: NotificationConfig): WhistleService {
  const lifecycle = createServiceLifecycle({
    name: 'notification',
    schema: NOTIFICATION_SCHEMA,
    migrations: notificationMigrations,
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
