import type { EventEnvelope, EventName, EventPayload } from '@whistle/contracts';
import { UnprocessableEventError, type Queryable, type ServiceSubscription } from '@whistle/service-kit';
import {
  recordCategory,
  recordCompany,
  recordCompanySettings,
  recordLocation,
  removeCategory,
  removeLocation,
} from '../../domain/company/company-read-model';
import { recordRotationCompleted, recordRotationStarted } from '../../domain/company-key/company-key-read-model';
import { recordAnnouncedFile } from '../../domain/files/file-read-model';
import { recordStaffMember, removeStaffMember } from '../../domain/staff/staff-read-model';
import { tokenRevocations } from '../../domain/staff/token-revocations';

type Handler = (tx: Queryable, event: EventEnvelope) => Promise<void>;

/** A handler of an event that belongs to a company: one without is unprocessable (dead-lettered at once). */
function ofCompany<N extends EventName>(
  handle: (tx: Queryable, companyId: string, payload: EventPayload<N>, event: EventEnvelope) => Promise<void>,
): Handler {
  return (tx, event) => {
    if (!event.company_id) throw new UnprocessableEventError(`${event.name} without a company`);
    return handle(tx, event.company_id, event.payload as EventPayload<N>, event);
  };
}

const handlers: Record<string, Handler> = {
  'company.created': (tx, event) => recordCompany(tx, event.payload as EventPayload<'company.created'>),
  'company.updated': ofCompany<'company.updated'>(recordCompanySettings),
  'category.created': ofCompany<'category.created'>(recordCategory),
  'category.updated': ofCompany<'category.updated'>(recordCategory),
  'category.deleted': ofCompany<'category.deleted'>((tx, companyId, { category_id }) =>
    removeCategory(tx, companyId, category_id),
  ),
  'location.created': ofCompany<'location.created'>(recordLocation),
  'location.updated': ofCompany<'location.updated'>(recordLocation),
  'location.deleted': ofCompany<'location.deleted'>((tx, companyId, { location_id }) =>
    removeLocation(tx, companyId, location_id),
  ),
  'user.created': ofCompany<'user.created'>(recordStaffMember),
  'user.updated': ofCompany<'user.updated'>(recordStaffMember),
  'user.deleted': ofCompany<'user.deleted'>(async (tx, companyId, user, event) => {
    await removeStaffMember(tx, companyId, user);
    await tokenRevocations.handle(tx, event);
  }),
  'token.revoked': (tx, event) => tokenRevocations.handle(tx, event),
  'user.sessions_revoked': (tx, event) => tokenRevocations.handle(tx, event),
  // Which company key version the cases are re-wrapped to, and when the previous one is gone.
  'company.key_rotation_started': ofCompany<'company.key_rotation_started'>(recordRotationStarted),
  'company.key_rotation_completed': ofCompany<'company.key_rotation_completed'>(recordRotationCompleted),
  'incident.file.created': ofCompany<'incident.file.created'>((tx, companyId, file, event) =>
    recordAnnouncedFile(tx, { ...file, companyId, createdAt: event.occurred_at }),
  ),
};

/** The read models kept from other services' events: one consumer (one queue), so each event reaches its handler once. */
export const readModelsSubscription: ServiceSubscription = {
  consumer: 'incident',
  events: Object.keys(handlers),
  handle: (tx, event) => handlers[event.name]!(tx, event),
};
