import type { EventPayload } from '@whistle/contracts';
import type { ObjectStore } from '@whistle/object-store';
import { UnprocessableEventError, type ServiceSubscription } from '@whistle/service-kit';
import { deleteIncidentFiles } from '../../domain/delete-incident-files.use-case';
import { rememberIncidentMessage } from '../../domain/remember-incident-message.use-case';
import { tokenRevocations } from '../../domain/token-revocations';

/**
 * What the file service learns from the incident service: which messages each case has (an upload may name
 * only one of its case's), and that a case was deleted for good (its files go with it); from auth, whose sessions
 * ended (the revocation list).
 */
export function fileEventsSubscription(deps: { objects: ObjectStore }): ServiceSubscription {
  return {
    consumer: 'file',
    events: ['incident.message.created', 'incident.deleted', 'user.deleted', 'user.sessions_revoked'],
    handle: (tx, event) => {
      if (event.name === 'user.deleted' || event.name === 'user.sessions_revoked')
        return tokenRevocations.handle(tx, event);
      if (!event.company_id) throw new UnprocessableEventError(`${event.name} without a company`);
      if (event.name === 'incident.message.created') {
        const { incident_id, incident_message_id } = event.payload as EventPayload<'incident.message.created'>;
        return rememberIncidentMessage(tx, {
          id: incident_message_id,
          companyId: event.company_id,
          incidentId: incident_id,
        });
      }
      const { incident_id } = event.payload as EventPayload<'incident.deleted'>;
      return deleteIncidentFiles(deps, tx, event.company_id, incident_id);
    },
  };
}
