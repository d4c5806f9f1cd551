import type { EventPayload } from '@whistle/contracts';
import { UnprocessableEventError, type ServiceSubscription } from '@whistle/service-kit';
import { recordLabelsInUse } from '../../domain/labels/label-use';

/**
 * Which labels and locations cases carry, so deleting one of those deactivates it instead: from the
 * incident service's incident.created (labels and location) and incident.updated (new labels).
 */
export const labelUseSubscription: ServiceSubscription = {
  consumer: 'auth',
  events: ['incident.created', 'incident.updated'],
  handle: async (tx, event) => {
    if (!event.company_id) throw new UnprocessableEventError(`${event.name} without a company`);
    const payload = event.payload as EventPayload<'incident.created'> | EventPayload<'incident.updated'>;
    const ids = 'location_id' in payload ? [...payload.category_ids, payload.location_id] : payload.category_ids;
    await recordLabelsInUse(tx, event.company_id, ids);
  },
};
