import { randomUUID } from 'node:crypto';
import {
  canMoveIncident,
  type IncidentStaffView,
  type IncidentStatus,
  type IncidentUpdateRequest,
} from '@whistle/contracts';
import { InputError, NotAllowedError, type Transaction } from '@whistle/service-kit';
import { caseGrantRepository, type CaseGrantRow } from '../../data-access/case-grant.repository';
import { caseRepository, type CaseRow } from '../../data-access/case.repository';
import { caseTeamRepository } from '../../data-access/case-team.repository';
import { companyReadModelRepository } from '../../data-access/company-read-model.repository';
import { staffRepository } from '../../data-access/staff.repository';
import { notFound, staffActor } from '../access/incident-actor';
import { permissionsOf, scopeOf, type StaffViewer } from '../access/staff-access';
import { addMessage } from '../messages/add-message';
import { staffViewOf, type CaseViewDependencies } from './case-view';
import { clockChangeOf } from './legal-clocks';

const difference = (from: readonly string[], minus: readonly string[]) => from.filter((id) => !minus.includes(id));
const unique = (ids: readonly string[]) => [...new Set(ids.map((id) => id.toLowerCase()))];

/** The ids among `ids` that are not current staff of the company: unknown, another company's, or removed. */
async function unknownStaff(tx: Transaction, companyId: string, ids: readonly string[]): Promise<string[]> {
  const known = new Set((await staffRepository.current(tx, companyId, ids)).map((member) => member.user_id));
  return ids.filter((id) => !known.has(id));
}

/**
 * PUT /api/incident/{uuid}/: a status move, new assignees, new exclusions, new labels — any combination,
 * checked as a whole and applied in one transaction (or not at all), each change announced by its event.
 * The request holds the whole new lists of assignees and exclusions, not differences.
 */
export async function updateCase(
  deps: CaseViewDependencies,
  viewer: StaffViewer,
  incidentId: string,
  input: IncidentUpdateRequest,
): Promise<IncidentStaffView> {
  const permissions = permissionsOf(viewer);
  const actor = { type: 'STAFF', user_id: viewer.userId } as const;

  return deps.unitOfWork(async (tx) => {
    await caseRepository.lock(tx, viewer.companyId, incidentId);
    const current = await caseRepository.find(tx, scopeOf(viewer), incidentId);
    // A case the caller may not see is unknown to them, whatever they ask of it.
    if (!current) throw notFound();
    if (input.assignee_uuids && !permissions.assign) throw new NotAllowedError('You may not assign people to cases');
    if (input.excluded_user_uuids && !permissions.exclude)
      throw new NotAllowedError('Only an admin excludes people from a case');
    if (input.grants && !permissions.assign) throw new NotAllowedError('You may not assign people to cases');
    if (input.category_uuids && !permissions.change_categories)
      throw new NotAllowedError('Only an admin changes the categories of a case');
    const errors: Record<string, string[]> = {};

    const categoryIds = input.category_uuids ? unique(input.category_uuids) : undefined;
    if (categoryIds) {
      const active = await companyReadModelRepository.activeCategoryIds(tx, viewer.companyId, categoryIds);
      if (categoryIds.some((id) => !active.has(id))) errors.category_uuids = ['Unknown category'];
    }
    if (input.status && !canMoveIncident(current.status, input.status))
      errors.status = [`A case cannot move from ${current.status} to ${input.status}`];
    // Closing is no feedback (directive art. 9(1)(f)): while feedback is due, the reporter is told the outcome.
    else if (input.status === 'CLOSED' && !input.final_message && current.feedback_at === null)
      errors.final_message = ['Feedback to the reporter is due: a final message to them is required to close the case'];

    const excludedBefore = await caseTeamRepository.exclusions(tx, viewer.companyId, incidentId);
    const excluded = input.excluded_user_uuids ? unique(input.excluded_user_uuids) : excludedBefore;
    if (input.excluded_user_uuids) {
      if (excluded.includes(viewer.userId)) errors.excluded_user_uuids = ['You cannot exclude yourself'];
      else if ((await unknownStaff(tx, viewer.companyId, difference(excluded, excludedBefore))).length > 0)
        errors.excluded_user_uuids = ['Unknown user'];
      else {
        // The discloser's own choice at report time (docs/security.md, "Keeping people out"): it holds for staff too.
        const byReporter = await caseTeamRepository.reporterExclusions(tx, viewer.companyId, incidentId);
        if (byReporter.some((id) => !excluded.includes(id)))
          errors.excluded_user_uuids = ['The reporter kept this person out of the case: their exclusion stays'];
      }
    }
    const assignedBefore = await caseTeamRepository.assignees(tx, viewer.companyId, incidentId);
    // Excluding someone also takes the case from them.
    const assigned = difference(input.assignee_uuids ? unique(input.assignee_uuids) : assignedBefore, excluded);
    if (input.assignee_uuids) {
      if (unique(input.assignee_uuids).some((id) => excluded.includes(id)))
        errors.assignee_uuids = ['Someone excluded from this case cannot be assigned to it'];
      else if ((await unknownStaff(tx, viewer.companyId, difference(assigned, assignedBefore))).length > 0)
        errors.assignee_uuids = ['Unknown user'];
    }
    const grants = input.grants ? await checkedGrants(tx, viewer.companyId, input.grants, assigned, excluded) : [];
    if (typeof grants === 'string') errors.grants = [grants];
    if (Object.keys(errors).length > 0) throw new InputError('Invalid request body', errors);

    const changes: ('status' | 'categories')[] = [];
    let feedbackGiven = false;
    if (input.status) {
      await moveCase(tx, viewer, current, input.status, input);
      changes.push('status');
    }
    // The final message goes out with the closing or not at all; it is the reporter's feedback.
    if (input.final_message) {
      const author = await staffActor(tx, viewer, incidentId);
      feedbackGiven = (
        await addMessage(tx, author, input.final_message, {
          feedback: true,
          final: true,
          signature: input.final_message_signature,
          signatureField: 'final_message_signature',
        })
      ).feedbackGiven;
    }
    if (categoryIds) {
      await caseRepository.replaceCategories(tx, viewer.companyId, incidentId, categoryIds);
      changes.push('categories');
    }
    const excludedAdded = difference(excluded, excludedBefore);
    const excludedRemoved = difference(excludedBefore, excluded);
    await caseTeamRepository.addExclusions(tx, viewer.companyId, incidentId, excludedAdded);
    await caseTeamRepository.removeExclusions(tx, viewer.companyId, incidentId, excludedRemoved);
    const assignedAdded = difference(assigned, assignedBefore);
    const assignedRemoved = difference(assignedBefore, assigned);
    await caseTeamRepository.addAssignees(tx, viewer.companyId, incidentId, assignedAdded);
    await caseTeamRepository.removeAssignees(tx, viewer.companyId, incidentId, assignedRemoved);
    // Whoever no longer works the case, or may not see it, loses their wrapping of its passphrase at once; the
    // incident.assigned / incident.exclusion.changed event below records the moment.
    await caseGrantRepository.remove(tx, viewer.companyId, incidentId, [...assignedRemoved, ...excludedAdded]);
    if (typeof grants !== 'string')
      await caseGrantRepository.upsert(tx, viewer.companyId, incidentId, viewer.userId, grants);

    const [summary] = await caseRepository.summaries(tx, viewer.companyId, [incidentId]);
    const base = { incident_id: incidentId, display_report_number: summary!.display_report_number };
    if (changes.length > 0)
      await tx.addEvent({
        name: 'incident.updated',
        company_id: viewer.companyId,
        payload: {
          ...base,
          status: summary!.status,
          previous_status: current.status,
          outcome: summary!.outcome,
          changes,
          category_ids: summary!.category_ids,
        },
        actor,
      });
    // Announced apart, as a reply marked as feedback is: the audit trail records the feedback as given.
    if (feedbackGiven)
      await tx.addEvent({
        name: 'incident.updated',
        company_id: viewer.companyId,
        payload: {
          ...base,
          status: summary!.status,
          previous_status: summary!.status,
          outcome: summary!.outcome,
          changes: ['feedback'],
          category_ids: summary!.category_ids,
        },
        actor,
      });
    if (excludedAdded.length > 0 || excludedRemoved.length > 0)
      await tx.addEvent({
        name: 'incident.exclusion.changed',
        company_id: viewer.companyId,
        payload: {
          incident_id: incidentId,
          excluded_user_ids: excluded,
          added_ids: excludedAdded,
          removed_ids: excludedRemoved,
        },
        actor,
      });
    if (assignedAdded.length > 0 || assignedRemoved.length > 0)
      await tx.addEvent({
        name: 'incident.assigned',
        company_id: viewer.companyId,
        payload: { ...base, assignee_ids: assigned, added_ids: assignedAdded, removed_ids: assignedRemoved },
        actor,
      });
    return staffViewOf(tx, deps.signer, viewer, incidentId);
  });
}

/**
 * The grants of a request, each for someone assigned once it applies (never an excluded person) and wrapped to the
 * key whose fingerprint the assigning page showed — their current one. A message when one is not.
 */
async function checkedGrants(
  tx: Transaction,
  companyId: string,
  requested: NonNullable<IncidentUpdateRequest['grants']>,
  assigned: readonly string[],
  excluded: readonly string[],
): Promise<CaseGrantRow[] | string> {
  const userIds = requested.map((grant) => grant.user_id.toLowerCase());
  if (new Set(userIds).size !== userIds.length) return 'One grant per person';
  if (userIds.some((id) => excluded.includes(id)))
    return 'Someone excluded from this case cannot be granted access to it';
  if (userIds.some((id) => !assigned.includes(id))) return 'A grant is only for someone assigned to this case';
  const keys = await caseGrantRepository.keysOf(tx, companyId, userIds);
  const rows: CaseGrantRow[] = [];
  for (const [index, grant] of requested.entries()) {
    const key = keys.get(userIds[index]!);
    if (!key || key.fingerprint !== grant.fingerprint)
      return "This person's keys are not the ones compared: reload the page and compare their fingerprint again";
    rows.push({
      user_id: key.user_id,
      key_id: key.key_id,
      fingerprint: key.fingerprint,
      wrapped_passphrase: grant.wrapped_passphrase,
    });
  }
  return rows;
}

/**
 * A status move: the case's clocks follow it (legal-clocks.ts, clockEffectsOfStatus), and its last activity;
 * the history keeps who moved it, why (encrypted) and when.
 */
async function moveCase(
  tx: Transaction,
  viewer: StaffViewer,
  current: CaseRow,
  to: IncidentStatus,
  input: IncidentUpdateRequest,
): Promise<void> {
  const resolutionDeadlineDays = await companyReadModelRepository.resolutionDeadlineDays(tx, viewer.companyId);
  const outcome = to === 'CLOSED' ? (input.outcome ?? null) : null;
  await caseRepository.moveStatus(tx, viewer.companyId, current.id, {
    to,
    outcome,
    clocks: clockChangeOf(to, resolutionDeadlineDays),
  });
  await caseRepository.recordStatusChange(tx, {
    id: randomUUID(),
    incidentId: current.id,
    companyId: viewer.companyId,
    from: current.status,
    to,
    outcome,
    motivation: input.motivation ?? null,
    changedBy: viewer.userId,
  });
}
