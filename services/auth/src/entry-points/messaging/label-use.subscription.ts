import { eventHandlers, ofCompany, type ServiceSubscription, type Transaction } from '@whistle/service-kit';
import { recordLabelsInUse } from '../../domain/labels/label-use';

/**
 * Which labels and locations cases carry, so deleting one of those deactivates it instead: from the
 * incident service's incident.created (labels and location) and incident.updated (new labels).
 */
export const labelUseSubscription: ServiceSubscription = {
  consumer: 'auth',
  ...eventHandlers<Transaction>({
    'incident.created@1': ofCompany((tx, { company_id, payload }) =>
      recordLabelsInUse(tx, company_id, [...payload.category_ids, payload.location_id]),
    ),
    'incident.updated@1': ofCompany((tx, { company_id, payload }) =>
      recordLabelsInUse(tx, company_id, payload.category_ids),
    ),
  }),
};
