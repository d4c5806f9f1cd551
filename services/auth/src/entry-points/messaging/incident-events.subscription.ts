import type { EventEnvelope, EventPayload } from '@whistle/contracts';
import { UnprocessableEventError, type ServiceSubscription, type Transaction } from '@whistle/service-kit';
import { completeCompanyKeyRotation } from '../../domain/keys/company-key-rotation.use-case';
import { recordLabelsInUse } from '../../domain/labels/label-use';

type Handler = (tx: Transaction, event: EventEnvelope & { company_id: string }) => Promise<void>;

/**
 * Which labels and locations cases carry, so deleting one of those deactivates it instead: from incident.created
 * (labels and location) and incident.updated (new labels).
 */
const recordLabels: Handler = async (tx, event) => {
  const payload = event.payload as EventPayload<'incident.created'> | EventPayload<'incident.updated'>;
  const ids = 'location_id' in payload ? [...payload.category_ids, payload.location_id] : payload.category_ids;
  await recordLabelsInUse(tx, event.company_id, ids);
};

const handlers: Record<string, Handler> = {
  'incident.created': recordLabels,
  'incident.updated': recordLabels,
  // Every case of a rotated company key is re-wrapped: the previous key's wrappings go.
  'incident.company_key_rewrapped': (tx, event) =>
    completeCompanyKeyRotation(tx, event, event.payload as EventPayload<'incident.company_key_rewrapped'>),
};

/** The incident service's events auth acts on: one consumer (one queue, as the broker user allows). */
export const incidentEventsSubscription: ServiceSubscription = {
  consumer: 'auth',
  events: Object.keys(handlers),
  handle: async (tx, event) => {
    const { company_id: companyId } = event;
    if (!companyId) throw new UnprocessableEventError(`${event.name} without a company`);
    await handlers[event.name]!(tx, { ...event, company_id: companyId });
  },
};
