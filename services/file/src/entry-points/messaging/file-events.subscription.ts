import type { ObjectStore } from '@whistle/object-store';
import { eventHandlers, ofCompany, type ServiceSubscription, type Transaction } from '@whistle/service-kit';
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
    ...eventHandlers<Transaction>({
      'incident.message.created@1': ofCompany((tx, { company_id, payload }) =>
        rememberIncidentMessage(tx, {
          id: payload.incident_message_id,
          companyId: company_id,
          incidentId: payload.incident_id,
        }),
      ),
      'incident.deleted@1': ofCompany((tx, { company_id, payload }) =>
        deleteIncidentFiles(deps, tx, company_id, payload.incident_id),
      ),
      'user.deleted@1': tokenRevocations.handlers['user.deleted@1'],
      'user.sessions_revoked@1': tokenRevocations.handlers['user.sessions_revoked@1'],
    }),
  };
}
