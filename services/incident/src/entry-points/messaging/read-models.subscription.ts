import type { EventEnvelope, EventPayload } from '@whistle/contracts';
import { UnprocessableEventError, type Queryable, type ServiceSubscription } from '@whistle/service-kit';
import { recordCompany } from '../../domain/company/company-read-model';
import { recordAnnouncedFile } from '../../domain/files/file-read-model';

const handlers: Record<string, (tx: Queryable, event: EventEnvelope) => Promise<void>> = {
  'company.created': (tx, event) => recordCompany(tx, event.payload as EventPayload<'company.created'>),
  'incident.file.created': (tx, event) => {
    if (!event.company_id) throw new UnprocessableEventError('incident.file.created without a company');
    const file = event.payload as EventPayload<'incident.file.created'>;
    return recordAnnouncedFile(tx, { ...file, companyId: event.company_id, createdAt: event.occurred_at });
  },
};

/** The read models kept from other services' events: one consumer (one queue), so each event reaches its handler once. */
export const readModelsSubscription: ServiceSubscription = {
  consumer: 'incident',
  events: Object.keys(handlers),
  handle: (tx, event) => handlers[event.name](tx, event),
};
