import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { IncidentCreateRequest, IncidentCreateResponse } from '@whistle/contracts';
import { hashDiscloserAuthToken } from '@whistle/crypto';
import { ConflictError, InputError, type NewEvent, type Queryable, type WriteWithEvents } from '@whistle/service-kit';
import { companyReadModelRepository } from '../../data-access/company-read-model.repository';
import { incidentRepository } from '../../data-access/incident.repository';
import { reportRequestRepository, type EarlierReport } from '../../data-access/report-request.repository';
import { nodeSha256 } from '../tokens/sha256';

export interface CreateIncidentDependencies {
  db: Queryable;
  writeWithEvents: WriteWithEvents;
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
 * A discloser's report, in three statements each committed on its own (docs/performance.md, Report creation):
 * validate the ids against the company's read model; take its number (reports of one company wait on the
 * counter's row lock only while the server runs that statement, neither for a round trip nor for a WAL flush);
 * store it with its categories, encrypted fields and its labels' default assignees and announce it, all in one
 * statement — a refused report leaves nothing behind.
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
  const tokenHash = await hashDiscloserAuthToken(input.discloser_auth_token, nodeSha256);
  const categoryIds = [...new Set(input.category_uuids)];

  const company = await companyReadModelRepository.reportContext(
    deps.db,
    input.url_identifier,
    categoryIds,
    input.location_uuid,
  );
  if (!company) throw new InputError('Bad Request', { url_identifier: ['Unknown company'] });
  const errors: Record<string, string[]> = {};
  // Ids of another company read as unknown: a report never learns what other tenants have.
  const known = new Set(company.active_category_ids);
  if (categoryIds.some((categoryId) => !known.has(categoryId))) errors.category_uuids = ['Unknown category'];
  if (!company.location_active) errors.location_uuid = ['Unknown location'];
  if (Object.keys(errors).length > 0) throw new InputError('Bad Request', errors);

  const requestHash = idempotencyKey && createHash('sha256').update(JSON.stringify(input)).digest('base64url');
  const answerEarlier = (earlier: EarlierReport) => {
    if (earlier.requestHash !== requestHash)
      throw new ConflictError('This idempotency key was already used for another report');
    return { uuid: earlier.incidentId, retrieval_id: earlier.retrievalId };
  };
  const taken = await incidentRepository.takeReportNumber(deps.db, company.id, idempotencyKey ?? null);
  if (taken.earlier) return answerEarlier(taken.earlier);
  const displayReportNumber = taken.number;

  const statement = incidentRepository.newReportStatement({
    id,
    companyId: company.id,
    displayReportNumber,
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
    fields: input.fields,
    // The labels' assignees (current staff only) get the case by default.
    assigneeIds: company.assignee_ids,
    ...(idempotencyKey && requestHash ? { idempotency: { key: idempotencyKey, requestHash } } : {}),
  });
  const events: NewEvent[] = [
    {
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
    },
  ];
  if (company.assignee_ids.length > 0)
    events.push({
      name: 'incident.assigned',
      company_id: company.id,
      payload: {
        incident_id: id,
        display_report_number: displayReportNumber,
        assignee_ids: company.assignee_ids,
        added_ids: company.assignee_ids,
        removed_ids: [],
      },
      actor: { type: 'SYSTEM' },
    });
  const { created } = await deps.writeWithEvents<{ created: boolean }>({
    ...statement,
    events,
    onlyIf: statement.stored,
    name: 'incident-create',
  });
  if (created) return { uuid: id, retrieval_id: retrievalId };

  // A copy of this request with the same key was stored meanwhile (its number is left unused).
  if (!idempotencyKey) throw new Error('A report without an idempotency key was not stored');
  const earlier = await reportRequestRepository.earlier(deps.db, company.id, idempotencyKey);
  if (!earlier) throw new Error('An idempotency key conflicted but its report is gone');
  return answerEarlier(earlier);
}
