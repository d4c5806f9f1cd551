import type { ServiceSubscription } from '@whistle/service-kit';
import { recordEvent, refusalToRecord } from '../../domain/record-event.use-case';

/** Every event of the platform, into the audit log, whatever its version (kept as data). */
export const auditLogSubscription: ServiceSubscription = {
  consumer: 'audit',
  events: ['#'],
  refusal: refusalToRecord,
  handle: (tx, event) => recordEvent(tx, event),
};
