import type { EventEnvelope } from '@whistle/contracts';
import type { Queryable } from '@whistle/service-kit';

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

export async function recordEvent(tx: Queryable, event: EventEnvelope): Promise<void> {
  const { tableIdentifier, objectId } = auditSubject(event);
  await tx.query(
    `insert into audit.audit_event (id, company_id, name, version, table_identifier, object_id, occurred_at, payload)
     values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict (id) do nothing`,
    [
      event.id,
      event.company_id,
      event.name,
      event.version,
      tableIdentifier,
      objectId,
      event.occurred_at,
      JSON.stringify(event.payload),
    ],
  );
}
