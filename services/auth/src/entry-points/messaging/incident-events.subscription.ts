import { eventHandlers, ofCompany, type ServiceSubscription, type Transaction } from '@whistle/service-kit';
import { completeCompanyKeyRotation } from '../../domain/keys/company-key-rotation.use-case';
import { recordLabelsInUse } from '../../domain/labels/label-use';

/** The incident service's events auth acts on: one consumer (one queue, as the broker user allows). */
export const incidentEventsSubscription: ServiceSubscription = {
  consumer: 'auth',
  ...eventHandlers<Transaction>({
    // Which labels and locations cases carry, so deleting one of those deactivates it instead.
    'incident.created@1': ofCompany((tx, { company_id, payload }) =>
      recordLabelsInUse(tx, company_id, [...payload.category_ids, payload.location_id]),
    ),
    'incident.created@2': ofCompany((tx, { company_id, payload }) =>
      recordLabelsInUse(tx, company_id, [...payload.category_ids, payload.location_id]),
    ),
    'incident.updated@1': ofCompany((tx, { company_id, payload }) =>
      recordLabelsInUse(tx, company_id, payload.category_ids),
    ),
    // Every case of a rotated company key is re-wrapped: the previous key's wrappings go.
    'incident.company_key_rewrapped@1': ofCompany((tx, event) => completeCompanyKeyRotation(tx, event, event.payload)),
  }),
};
