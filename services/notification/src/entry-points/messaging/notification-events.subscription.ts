import type { EventEnvelope, EventName, EventPayload } from '@whistle/contracts';
import { UnprocessableEventError, type Queryable, type ServiceSubscription } from '@whistle/service-kit';
import {
  onDeadline,
  onDiscloserActivity,
  onExclusionChanged,
  onIncidentAssigned,
  onIncidentCreated,
  onIncidentDeleted,
  onRetentionDue,
  type CaseNotificationDependencies,
} from '../../domain/case-notifications.use-case';
import {
  recordCategory,
  recordCompanySettings,
  recordStaffMember,
  removeCategory,
  removeStaffMember,
} from '../../domain/staff-read-model';
import { welcomeCompany } from '../../domain/welcome-company.use-case';

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

/**
 * Every event the notification service reacts to, on one consumer (one queue, so each event reaches its
 * handler once): the read models it addresses mails from, and the events that are mails.
 */
export function notificationEventsSubscription(deps: CaseNotificationDependencies): ServiceSubscription {
  const discloserActivity: Handler = ofCompany((tx, companyId, _payload, event) =>
    onDiscloserActivity(deps, tx, companyId, event),
  );
  const handlers: Record<string, Handler> = {
    'company.created': (tx, event) => welcomeCompany(deps, tx, event.payload as EventPayload<'company.created'>),
    'company.updated': ofCompany<'company.updated'>(recordCompanySettings),
    'user.created': ofCompany<'user.created'>(recordStaffMember),
    'user.updated': ofCompany<'user.updated'>(recordStaffMember),
    'user.deleted': ofCompany<'user.deleted'>(removeStaffMember),
    'category.created': ofCompany<'category.created'>(recordCategory),
    'category.updated': ofCompany<'category.updated'>(recordCategory),
    'category.deleted': ofCompany<'category.deleted'>(removeCategory),
    'incident.created': ofCompany<'incident.created'>((tx, companyId, report) =>
      onIncidentCreated(deps, tx, companyId, report),
    ),
    'incident.assigned': ofCompany<'incident.assigned'>((tx, companyId, assignment, event) =>
      onIncidentAssigned(deps, tx, companyId, assignment, event.actor),
    ),
    'incident.exclusion.changed': ofCompany<'incident.exclusion.changed'>(onExclusionChanged),
    'incident.deadline': ofCompany<'incident.deadline'>((tx, companyId, deadline) =>
      onDeadline(deps, tx, companyId, deadline),
    ),
    'incident.retention_due': ofCompany<'incident.retention_due'>((tx, companyId, due) =>
      onRetentionDue(deps, tx, companyId, due),
    ),
    'incident.deleted': ofCompany<'incident.deleted'>(onIncidentDeleted),
    'incident.message.created': discloserActivity,
    'incident.file.created': discloserActivity,
  };
  return {
    consumer: 'notification',
    events: Object.keys(handlers),
    handle: (tx, event) => handlers[event.name]!(tx, event),
  };
}
