import type { EventPayload } from '@whistle/contracts';
import type { ObjectStore } from '@whistle/object-store';
import { UnprocessableEventError, type ServiceSubscription } from '@whistle/service-kit';
import { deleteIncidentFiles } from '../../domain/delete-incident-files.use-case';

/** The file service's one subscription: a case deleted for good takes its files with it. */
export function incidentDeletedSubscription(deps: { objects: ObjectStore }): ServiceSubscription {
  return {
    consumer: 'file',
    events: ['incident.deleted'],
    handle: (tx, event) => {
      if (!event.company_id) throw new UnprocessableEventError(`${event.name} without a company`);
      const { incident_id } = event.payload as EventPayload<'incident.deleted'>;
      return deleteIncidentFiles(deps, tx, event.company_id, incident_id);
    },
  };
}
