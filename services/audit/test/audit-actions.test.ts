import { randomUUID } from 'node:crypto';
import { auditActions, eventCatalogue, type EventEnvelope } from '@whistle/contracts';
import { auditEntryFacts } from '../src/domain/audit-entry';

/**
 * The pages translate the actions listed in the contracts (`auditActions`) and offer them as a filter:
 * each event of the catalogue must come out as one of them, and each of them must still be made by some event.
 */
const envelope = (name: string, payload: Record<string, unknown>, actor?: EventEnvelope['actor']): EventEnvelope => ({
  id: randomUUID(),
  name,
  version: 1,
  company_id: randomUUID(),
  occurred_at: new Date().toISOString(),
  payload,
  actor,
});

/** The payload shapes that change an event's action, beside its name. */
const variants: Record<string, EventEnvelope[]> = {
  'user.created': [
    envelope('user.created', { user_id: 'u1' }, { type: 'STAFF', user_id: 'u1' }),
    envelope('user.created', { user_id: 'u1' }, { type: 'STAFF', user_id: 'u2' }),
  ],
  'incident.updated': [['status'], ['feedback'], ['category_ids']].map((changes) =>
    envelope('incident.updated', { incident_id: 'i', changes }),
  ),
  'incident.deadline': ['due_soon', 'overdue'].map((state) =>
    envelope('incident.deadline', { incident_id: 'i', state }),
  ),
};

test('when every event of the catalogue is recorded, then its action is one the pages know, and every known action is still made', () => {
  const made = Object.keys(eventCatalogue).flatMap((name) =>
    (variants[name] ?? [envelope(name, {})]).map((event) => auditEntryFacts(event).action),
  );
  expect(made.filter((action) => !(auditActions as readonly string[]).includes(action))).toEqual([]);
  expect(auditActions.filter((action) => !made.includes(action))).toEqual([]);
});
