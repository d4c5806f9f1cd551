import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { IncidentCreateRequest, IncidentCreateResponse } from '@whistle/contracts';
import { hashDiscloserAuthToken } from '@whistle/crypto';
import { ConflictError, InputError, traceContextOf, type Queryable } from '@whistle/service-kit';
import { nodeSha256 } from '../tokens/sha256';
import type { ReportWriter } from './report-writer';
import { NO_EXCLUSIONS, reporterExclusions } from './reporter-exclusions';
import type { StaffRecorder } from './staff-recorder';

export interface CreateIncidentDependencies {
  reports: ReportWriter;
  /** Reads a report's readers when it keeps someone out (reporterExclusions). */
  db: Queryable;
}

const STALE_KEY = 'The company key has changed since this page was loaded';

/**
 * A retrieval id says nothing by itself: 80 random bits in lower-case hex, easy to type back and
 * unguessable (the discloser passphrase adds its 140 bits; retrieval is rate-limited besides).
 */
function newRetrievalId(): string {
  return randomBytes(10).toString('hex');
}

/**
 * A discloser's report: checked against the company's read model (its labels and location), numbered, and stored
 * with its categories, encrypted fields and its labels' default assignees (less those its discloser kept out:
 * reporterExclusions), and announced — together with the
 * other reports arriving at the same time (ReportWriter). A refused report leaves nothing behind.
 *
 * With an idempotency key (made in the browser, sent again with the same request when the answer was lost),
 * a repeated create answers the report the first one stored and stores nothing more; the same key with
 * another request is refused rather than answered with a report the discloser did not write.
 */
export async function createIncident(
  deps: CreateIncidentDependencies,
  input: IncidentCreateRequest,
  idempotencyKey?: string,
  /**
   * The staff member who recorded the report (recordStaffReport), and whether the case is assigned to them too (a
   * handler, who sees only assigned cases, keeps the case they took); none for a reporter's own report.
   */
  recorder?: StaffRecorder,
): Promise<IncidentCreateResponse> {
  const id = randomUUID();
  const retrievalId = newRetrievalId();
  const categoryIds = [...new Set(input.category_uuids)];
  const requestHash = idempotencyKey && createHash('sha256').update(JSON.stringify(input)).digest('base64url');
  // Read only for a report that keeps someone out (or says it does): every other report skips the round trip.
  const exclusions =
    input.excluded_key_ids?.length || input.company_encrypted_passphrase === null
      ? await reporterExclusions(deps.db, input)
      : NO_EXCLUSIONS;

  const outcome = await deps.reports.write({
    request: {
      urlIdentifier: input.url_identifier,
      idempotencyKey: idempotencyKey ?? null,
      categoryIds,
      locationId: input.location_uuid,
    },
    report: {
      id,
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
      discloserTeamKeys: input.discloser_team_keys ?? null,
      discloserAuthTokenHash: await hashDiscloserAuthToken(input.discloser_auth_token, nodeSha256),
      categoryIds,
      fields: input.fields,
      companyKeyVersion: input.company_key_version ?? null,
      recordedBy: recorder?.userId ?? null,
      alsoAssigned: recorder?.assign ? [recorder.userId] : [],
      excludedUserIds: exclusions.excludedUserIds,
      grantedEveryCaseIds: exclusions.grantedEveryCaseIds,
      grants: [
        ...(input.grants ?? []).map((grant) => ({
          keyId: grant.key_id.toLowerCase(),
          wrappedPassphrase: grant.wrapped_passphrase,
        })),
        // The recorder's own (checked by staffRecorder): stored as they are assigned the case.
        ...(recorder?.grant ? [recorder.grant] : []),
      ],
      ...(idempotencyKey && requestHash ? { idempotency: { key: idempotencyKey, requestHash } } : {}),
    },
    traceContext: traceContextOf(),
  });
  switch (outcome.kind) {
    case 'created':
      return { uuid: id, retrieval_id: retrievalId, display_report_number: outcome.displayReportNumber };
    case 'unknown-company':
      throw new InputError('Bad Request', { url_identifier: ['Unknown company'] });
    case 'invalid':
      // Ids of another company read as unknown: a report never learns what other tenants have.
      throw new InputError('Bad Request', {
        ...(outcome.unknownCategory ? { category_uuids: ['Unknown category'] } : {}),
        ...(outcome.unknownLocation ? { location_uuid: ['Unknown location'] } : {}),
      });
    case 'stale-key':
      throw new ConflictError(STALE_KEY, { errors: { company_key_version: [STALE_KEY] } });
    case 'earlier':
      if (outcome.earlier.requestHash !== requestHash)
        throw new ConflictError('This idempotency key was already used for another report');
      return {
        uuid: outcome.earlier.incidentId,
        retrieval_id: outcome.earlier.retrievalId,
        display_report_number: outcome.earlier.displayReportNumber,
      };
  }
}
