import type { EventEnvelope } from '@whistle/contracts';
import type { Queryable } from '@whistle/service-kit';
import { auditEventRepository } from '../data-access/audit-event.repository';

/**
 * The audited object of an event: `incident.message.created` is about an incident message, so its
 * table identifier is `incident_message` and its object the `<table>_id` of the payload.
 */
export function auditSubject(event: EventEnvelope): { tableIdentifier: string; objectId: string | null } {
  const words = event.name.split('.');
  const table = words.slice(0, -1).join('_');
  const tableIdentifier = table === 'user' ? 'user_profile' : table;
  const candidates = [`${table}_id`, `${words[0]}_id`, 'id'];
  const objectId =
    candidates.map((key) => event.payload[key]).find((value): value is string => typeof value === 'string') ?? null;
  return { tableIdentifier, objectId };
}

/** Appends the event to the audit log with its subject. */
export async function recordEvent(tx: Queryable, event: EventEnvelope): Promise<void> {
  await auditEventRepository.insert(tx, {
    id: event.id,
    companyId: event.company_id,
    name: event.name,
    version: event.version,
    ...auditSubject(event),
    occurredAt: event.occurred_at,
    payload: event.payload,
  });
}
