import type { ServiceSubscription } from '@whistle/service-kit';
import { recordEvent } from '../../domain/record-event.use-case';

/** Every event of the platform, into the audit log. */
export const auditLogSubscription: ServiceSubscription = {
  consumer: 'audit',
  events: ['#'],
  handle: (tx, event) => recordEvent(tx, event),
};
