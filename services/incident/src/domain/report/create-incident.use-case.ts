import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { IncidentCreateRequest, IncidentCreateResponse } from '@whistle/contracts';
import { hashDiscloserAuthToken } from '@whistle/crypto';
import { ConflictError, InputError, type UnitOfWork } from '@whistle/service-kit';
import { caseRepository } from '../../data-access/case.repository';
import { companyReadModelRepository } from '../../data-access/company-read-model.repository';
import { incidentRepository } from '../../data-access/incident.repository';
import { reportRequestRepository } from '../../data-access/report-request.repository';
import { staffRepository } from '../../data-access/staff.repository';

export interface CreateIncidentDependencies {
  unitOfWork: UnitOfWork;
}

/** Every report starts here; staff move it on. */
export const INITIAL_STATUS = 'NEW';

/**
 * A retrieval id says nothing by itself: 80 random bits in lower-case hex, easy to type back and
 * unguessable (the discloser passphrase adds its 140 bits; retrieval is rate-limited besides).
 */
export function newRetrievalId(): string {
  return randomBytes(10).toString('hex');
}

/**
 * A discloser's report: validate the ids against the company's read model, store it with its categories,
 * encrypted fields and its labels' default assignees, number it, and announce it, all in one transaction —
 * a refused report leaves nothing behind. The number is taken last, so reports of one company do not queue
 * behind the counter's row lock for longer than their COMMIT.
 *
 * With an idempotency key (made in the browser, sent again with the same request when the answer was lost),
 * a repeated create answers the report the first one stored and stores nothing more; the same key with
 * another request is refused rather than answered with a report the discloser did not write.
 */
export async function createIncident(
  deps: CreateIncidentDependencies,
  input: IncidentCreateRequest,
  idempotencyKey?: string,
): Promise<IncidentCreateResponse> {
  const id = randomUUID();
  const retrievalId = newRetrievalId();
  const tokenHash = await hashDiscloserAuthToken(input.discloser_auth_token);
  const categoryIds = [...new Set(input.category_uuids)];

  return deps.unitOfWork(async (tx) => {
    const company = await companyReadModelRepository.companyByUrlIdentifier(tx, input.url_identifier);
    if (!company) throw new InputError('Bad Request', { url_identifier: ['Unknown company'] });
    if (idempotencyKey) {
      const requestHash = createHash('sha256').update(JSON.stringify(input)).digest('base64url');
      const claim = await reportRequestRepository.claim(tx, {
        companyId: company.id,
        key: idempotencyKey,
        requestHash,
        incidentId: id,
      });
      if (!claim.claimed) {
        if (claim.requestHash !== requestHash)
          throw new ConflictError('This idempotency key was already used for another report');
        return { uuid: claim.incidentId, retrieval_id: claim.retrievalId };
      }
    }
    const known = await companyReadModelRepository.activeCategoryIds(tx, company.id, categoryIds);
    const errors: Record<string, string[]> = {};
    // Ids of another company read as unknown: a report never learns what other tenants have.
    if (categoryIds.some((categoryId) => !known.has(categoryId))) errors.category_uuids = ['Unknown category'];
    if (!(await companyReadModelRepository.isActiveLocation(tx, company.id, input.location_uuid)))
      errors.location_uuid = ['Unknown location'];
    if (Object.keys(errors).length > 0) throw new InputError('Bad Request', errors);

    await incidentRepository.insertIncident(tx, {
      id,
      companyId: company.id,
      retrievalId,
      reportChannel: input.report_channel,
      reportAnonymously: input.report_anonymously,
      locationId: input.location_uuid,
      publicKey: input.credential.public_key,
      aesEncryptedPrivateKey: input.credential.aes_encrypted_private_key,
      aesSalt: input.aes_salt,
      aesIv: input.aes_iv,
      companyEncryptedPassphrase: input.company_encrypted_passphrase,
      discloserEncryptedPassphrase: input.discloser_encrypted_passphrase,
      discloserAuthTokenHash: tokenHash,
      resolutionDeadlineDays: company.resolution_deadline_days,
      categoryIds,
    });
    await incidentRepository.insertCategories(tx, id, categoryIds);
    await incidentRepository.insertFields(tx, id, input.fields);
    // The labels' assignees (current staff only) get the case by default.
    const candidates = await companyReadModelRepository.assigneesOf(tx, company.id, categoryIds);
    const assignees = (await staffRepository.current(tx, company.id, candidates)).map((member) => member.user_id);
    await caseRepository.addAssignees(tx, company.id, id, assignees);

    const displayReportNumber = await companyReadModelRepository.numberReport(tx, company.id, id);
    await tx.addEvent({
      name: 'incident.created',
      company_id: company.id,
      payload: {
        incident_id: id,
        display_report_number: displayReportNumber,
        status: INITIAL_STATUS,
        report_channel: input.report_channel,
        report_anonymously: input.report_anonymously,
        category_ids: categoryIds,
        location_id: input.location_uuid,
      },
      actor: { type: 'DISCLOSER' },
    });
    if (assignees.length > 0)
      await tx.addEvent({
        name: 'incident.assigned',
        company_id: company.id,
        payload: {
          incident_id: id,
          display_report_number: displayReportNumber,
          assignee_ids: assignees,
          added_ids: assignees,
          removed_ids: [],
        },
        actor: { type: 'SYSTEM' },
      });
    return { uuid: id, retrieval_id: retrievalId };
  });
}
