import type { EventEnvelope, EventPayload } from '@whistle/contracts';
import type { Queryable } from '@whistle/service-kit';
import { caseMailRepository, type MailKind } from '../data-access/case-mail.repository';
import { mailQueueRepository } from '../data-access/mail-queue.repository';
import { caseMail, type CaseMailEvent } from './case-mails';

export interface CaseNotificationDependencies {
  /** Base of the links in the mails. */
  publicUrl: string;
}

/**
 * Queues one kind of case mail for whoever should get it, if the company sends that kind: in the consumer's
 * transaction, so the mails exist exactly when the event counts as handled (the dispatcher sends them).
 */
async function notify(
  deps: CaseNotificationDependencies,
  tx: Queryable,
  companyId: string,
  kind: MailKind,
  event: CaseMailEvent,
  incident: { incidentId: string; number: number; dueAt?: string },
  audience: { userIds: string[]; withAdmins: boolean },
): Promise<void> {
  if (!(await caseMailRepository.companySends(tx, companyId, kind))) return;
  const recipients = await caseMailRepository.recipients(tx, companyId, kind, {
    ...audience,
    incidentId: incident.incidentId,
  });
  for (const recipient of recipients)
    await mailQueueRepository.add(tx, companyId, caseMail(recipient, event, incident, deps.publicUrl));
}

/**
 * incident.created: admins and the default assignees of the report's labels (spec §3 new_incidents), but never
 * those its discloser kept out (v2's `excluded_user_ids`), who hear nothing of the case from then on either.
 */
export async function onIncidentCreated(
  deps: CaseNotificationDependencies,
  tx: Queryable,
  companyId: string,
  report: EventPayload<'incident.created'> & Partial<EventPayload<'incident.created', 2>>,
): Promise<void> {
  await caseMailRepository.upsertIncident(tx, {
    incidentId: report.incident_id,
    companyId,
    number: report.display_report_number,
  });
  if (report.excluded_user_ids?.length)
    await caseMailRepository.setExclusions(tx, companyId, report.incident_id, report.excluded_user_ids);
  const labelAssignees = await caseMailRepository.categoryAssignees(tx, companyId, report.category_ids);
  await notify(
    deps,
    tx,
    companyId,
    'new_incidents',
    'new_report',
    { incidentId: report.incident_id, number: report.display_report_number },
    { userIds: labelAssignees, withAdmins: true },
  );
}

/**
 * incident.assigned: those just added (spec §3 assigned_to_an_incident). The default assignment of a new report
 * to its labels' assignees (actor SYSTEM) mails nothing more: the new-report mail already told them.
 */
export async function onIncidentAssigned(
  deps: CaseNotificationDependencies,
  tx: Queryable,
  companyId: string,
  assignment: EventPayload<'incident.assigned'>,
  actor: EventEnvelope['actor'],
): Promise<void> {
  await caseMailRepository.upsertIncident(tx, {
    incidentId: assignment.incident_id,
    companyId,
    number: assignment.display_report_number,
    assigneeIds: assignment.assignee_ids,
  });
  if (actor?.type === 'SYSTEM') return;
  await notify(
    deps,
    tx,
    companyId,
    'assigned_to_an_incident',
    'assigned',
    { incidentId: assignment.incident_id, number: assignment.display_report_number },
    { userIds: assignment.added_ids, withAdmins: false },
  );
}

/**
 * A message or a file from the discloser on a case: its assignees (spec §3 incident_updates). Staff's own
 * messages and files mail nobody.
 */
async function onDiscloserActivity(
  deps: CaseNotificationDependencies,
  tx: Queryable,
  companyId: string,
  incidentId: string,
  event: 'discloser_message' | 'discloser_file',
): Promise<void> {
  const incident = await caseMailRepository.incident(tx, companyId, incidentId);
  if (!incident) return;
  await notify(
    deps,
    tx,
    companyId,
    'incident_updates',
    event,
    { incidentId, number: incident.display_report_number },
    { userIds: incident.assignee_ids, withAdmins: false },
  );
}

/** incident.message.created: the discloser's messages (the payload says who sent it). */
export async function onIncidentMessage(
  deps: CaseNotificationDependencies,
  tx: Queryable,
  companyId: string,
  message: EventPayload<'incident.message.created'>,
): Promise<void> {
  if (message.sender_source !== 'DISCLOSER') return;
  await onDiscloserActivity(deps, tx, companyId, message.incident_id, 'discloser_message');
}

/** incident.file.created: the discloser's files (the event's actor says who uploaded it). */
export async function onIncidentFile(
  deps: CaseNotificationDependencies,
  tx: Queryable,
  companyId: string,
  file: EventPayload<'incident.file.created'>,
  actor: EventEnvelope['actor'],
): Promise<void> {
  if (actor?.type !== 'DISCLOSER') return;
  await onDiscloserActivity(deps, tx, companyId, file.incident_id, 'discloser_file');
}

/** incident.exclusion.changed: an excluded person hears nothing more of the case. */
export async function onExclusionChanged(
  tx: Queryable,
  companyId: string,
  change: EventPayload<'incident.exclusion.changed'>,
): Promise<void> {
  await caseMailRepository.setExclusions(tx, companyId, change.incident_id, change.excluded_user_ids);
}

/**
 * incident.deadline: a clock of a case is due soon or overdue (spec §3 deadlines). Its assignees hear of it;
 * the admins too once it is overdue, since nobody acted in time.
 */
export async function onDeadline(
  deps: CaseNotificationDependencies,
  tx: Queryable,
  companyId: string,
  deadline: EventPayload<'incident.deadline'>,
): Promise<void> {
  await caseMailRepository.upsertIncident(tx, {
    incidentId: deadline.incident_id,
    companyId,
    number: deadline.display_report_number,
    assigneeIds: deadline.assignee_ids,
  });
  await notify(
    deps,
    tx,
    companyId,
    'deadlines',
    `${deadline.clock}_${deadline.state}`,
    { incidentId: deadline.incident_id, number: deadline.display_report_number, dueAt: deadline.due_at },
    { userIds: deadline.assignee_ids, withAdmins: deadline.state === 'overdue' },
  );
}

/**
 * incident.retention_due: a closed case will be deleted for good (spec §3 deadlines kind): the company's admins
 * hear of it, with its number, the date and a link (they may reopen it to keep it), unless excluded from it.
 */
export async function onRetentionDue(
  deps: CaseNotificationDependencies,
  tx: Queryable,
  companyId: string,
  due: EventPayload<'incident.retention_due'>,
): Promise<void> {
  await notify(
    deps,
    tx,
    companyId,
    'deadlines',
    'retention_due',
    { incidentId: due.incident_id, number: due.display_report_number, dueAt: due.delete_at },
    { userIds: [], withAdmins: true },
  );
}

/** incident.deleted: nothing of the case is kept here either. */
export async function onIncidentDeleted(
  tx: Queryable,
  companyId: string,
  deleted: EventPayload<'incident.deleted'>,
): Promise<void> {
  await caseMailRepository.removeIncident(tx, companyId, deleted.incident_id);
}
