import type { EventPayload } from '@whistle/contracts';
import { UnprocessableEventError, type ServiceSubscription } from '@whistle/service-kit';
import { finishRotation } from '../../domain/keys/company-keys.use-case';

/**
 * The incident service re-wrapped every case of a rotated company key's previous version: that version's private
 * key and its wrappings go.
 */
export const keyRotationSubscription: ServiceSubscription = {
  consumer: 'auth-key-rotation',
  events: ['incident.company_key_rewrapped'],
  handle: async (tx, event) => {
    if (!event.company_id) throw new UnprocessableEventError(`${event.name} without a company`);
    const payload = event.payload as EventPayload<'incident.company_key_rewrapped'>;
    await finishRotation(tx, event.company_id, payload.previous_key_version);
  },
};
