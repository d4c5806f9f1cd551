import { Router } from 'express';
import type { EventEnvelope, EventPayload } from '@whistle/contracts';
import {
  createServiceLifecycle,
  type Queryable,
  type ServiceDependencies,
  type WhistleService,
} from '@whistle/service-kit';
import type { NotificationConfig } from './config';
import { NOTIFICATION_SCHEMA, notificationMigrations } from './data-access/migrations';
import { welcomeMail } from './domain/welcome-mail';

/** Turns events into e-mails, per company notification settings. Never puts report content in a mail. */
export function createNotificationService(deps: ServiceDependencies, config: NotificationConfig): WhistleService {
  async function onCompanyCreated(tx: Queryable, event: EventEnvelope) {
    const company = event.payload as EventPayload<'company.created'>;
    await tx.query(
      `insert into notification.company_preferences (company_id, url_identifier, name) values ($1, $2, $3)
       on conflict (company_id) do nothing`,
      [company.company_id, company.url_identifier, company.name],
    );
    // Sent inside the consumer transaction: if the mail server refuses, the event is retried, not lost.
    await deps.mailer.send(welcomeMail(company, config.PUBLIC_URL));
  }

  const lifecycle = createServiceLifecycle({
    name: 'notification',
    schema: NOTIFICATION_SCHEMA,
    migrations: notificationMigrations,
    deps,
    subscriptions: [{ consumer: 'notification', events: ['company.created'], handle: onCompanyCreated }],
  });
  return { name: 'notification', router: Router(), start: lifecycle.start, stop: lifecycle.stop };
}
