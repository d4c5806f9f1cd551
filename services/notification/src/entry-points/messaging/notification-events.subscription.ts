import { eventHandlers, ofCompany, type ServiceSubscription, type Transaction } from '@whistle/service-kit';
import {
  onDeadline,
  onExclusionChanged,
  onIncidentAssigned,
  onIncidentCreated,
  onIncidentDeleted,
  onIncidentFile,
  onIncidentMessage,
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

/**
 * Every event the notification service reacts to, on one consumer (one queue, so each event reaches its
 * handler once): the read models it addresses mails from, and the events that are mails.
 */
export function notificationEventsSubscription(deps: CaseNotificationDependencies): ServiceSubscription {
  return {
    consumer: 'notification',
    ...eventHandlers<Transaction>({
      'company.created@1': (tx, { payload }) => welcomeCompany(deps, tx, payload),
      'company.created@2': (tx, { payload }) => welcomeCompany(deps, tx, payload),
      'company.updated@1': ofCompany((tx, event) => recordCompanySettings(tx, event.company_id, event.payload)),
      'user.created@1': ofCompany((tx, event) => recordStaffMember(tx, event.company_id, event.payload)),
      'user.updated@1': ofCompany((tx, event) => recordStaffMember(tx, event.company_id, event.payload)),
      'user.created@2': ofCompany((tx, event) => recordStaffMember(tx, event.company_id, event.payload)),
      'user.updated@2': ofCompany((tx, event) => recordStaffMember(tx, event.company_id, event.payload)),
      'user.deleted@1': ofCompany((tx, event) => removeStaffMember(tx, event.company_id, event.payload)),
      'category.created@1': ofCompany((tx, event) => recordCategory(tx, event.company_id, event.payload)),
      'category.updated@1': ofCompany((tx, event) => recordCategory(tx, event.company_id, event.payload)),
      'category.deleted@1': ofCompany((tx, event) => removeCategory(tx, event.company_id, event.payload)),
      'incident.created@1': ofCompany((tx, event) => onIncidentCreated(deps, tx, event.company_id, event.payload)),
      'incident.created@2': ofCompany((tx, event) => onIncidentCreated(deps, tx, event.company_id, event.payload)),
      'incident.assigned@1': ofCompany((tx, event) =>
        onIncidentAssigned(deps, tx, event.company_id, event.payload, event.actor),
      ),
      'incident.exclusion.changed@1': ofCompany((tx, event) => onExclusionChanged(tx, event.company_id, event.payload)),
      'incident.deadline@1': ofCompany((tx, event) => onDeadline(deps, tx, event.company_id, event.payload)),
      'incident.retention_due@1': ofCompany((tx, event) => onRetentionDue(deps, tx, event.company_id, event.payload)),
      'incident.deleted@1': ofCompany((tx, event) => onIncidentDeleted(tx, event.company_id, event.payload)),
      'incident.message.created@1': ofCompany((tx, event) =>
        onIncidentMessage(deps, tx, event.company_id, event.payload),
      ),
      'incident.file.created@1': ofCompany((tx, event) =>
        onIncidentFile(deps, tx, event.company_id, event.payload, event.actor),
      ),
    }),
  };
}
