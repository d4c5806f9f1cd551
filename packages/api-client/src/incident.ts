import type {
  IncidentCreateRequest,
  IncidentCreateResponse,
  IncidentDiscloserView,
  IncidentFileSummary,
  IncidentMessage,
  MessageCreateRequest,
  ProofOfWorkChallenge,
  RecordApproval,
} from '@whistle/contracts';
import type { ApiClient } from './client';

/**
 * POST /api/incident/: a report whose fields are already encrypted in the browser. Sent again with the same
 * `idempotencyKey` and payload (after a lost answer), it answers the report the first call stored.
 */
export const createIncident = (
  api: ApiClient,
  payload: IncidentCreateRequest,
  { idempotencyKey, signal }: { idempotencyKey?: string; signal?: AbortSignal } = {},
) =>
  api.request<IncidentCreateResponse>('POST', '/api/incident/', {
    body: payload,
    signal,
    headers: idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : undefined,
  });

/**
 * POST /api/incident/recorded: a report a staff member took by telephone or in a meeting (issue 26, directive
 * art. 18), built and encrypted in the staff browser like a reporter's; `api` carries the staff access token.
 */
export const recordStaffReport = (
  api: ApiClient,
  payload: IncidentCreateRequest,
  { idempotencyKey, signal }: { idempotencyKey?: string; signal?: AbortSignal } = {},
) =>
  api.request<IncidentCreateResponse>('POST', '/api/incident/recorded', {
    body: payload,
    signal,
    headers: idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : undefined,
  });

/**
 * POST /api/incident/{uuid}/record-approval: the reporter approves the record staff made (discloser session). The
 * body is an empty JSON object: the approval says nothing but itself.
 */
export const approveRecord = (api: ApiClient, incidentUuid: string, signal?: AbortSignal) =>
  api.request<RecordApproval>('POST', `/api/incident/${encodeURIComponent(incidentUuid)}/record-approval`, {
    body: {},
    signal,
  });

/** GET /api/incident/challenge: the proof of work a report to the company needs now (difficulty 0: none). */
export const getProofOfWorkChallenge = (api: ApiClient, urlIdentifier: string, signal?: AbortSignal) =>
  api.request<ProofOfWorkChallenge>(
    'GET',
    `/api/incident/challenge?${new URLSearchParams({ url_identifier: urlIdentifier })}`,
    { signal },
  );

/**
 * GET /api/incident/discloser: the discloser's incident (still encrypted) and its session token.
 * `api` must send the discloser auth token (`deriveDiscloserAuthToken`) as its Bearer token. Spec §7 puts the
 * retrieval id in the query, so no log of the platform keeps a query (docs/operations.md, "Access logs").
 */
export const getDiscloserIncident = (
  api: ApiClient,
  urlIdentifier: string,
  retrievalId: string,
  signal?: AbortSignal,
) =>
  api.request<IncidentDiscloserView>(
    'GET',
    `/api/incident/discloser?${new URLSearchParams({ url_identifier: urlIdentifier, retrieval_id: retrievalId })}`,
    { signal },
  );

/** GET /api/incident/{uuid}/message, oldest first; `api` carries the discloser session token. */
export const listIncidentMessages = (api: ApiClient, incidentUuid: string, signal?: AbortSignal) =>
  api.request<IncidentMessage[]>('GET', `/api/incident/${encodeURIComponent(incidentUuid)}/message`, { signal });

/** POST /api/incident/message/ with an `encryptContent` ciphertext (bound as a message of its sender) as content. */
export const sendIncidentMessage = (api: ApiClient, message: MessageCreateRequest, signal?: AbortSignal) =>
  api.request<IncidentMessage>('POST', '/api/incident/message/', { body: message, signal });

/** GET /api/incident/{uuid}/file: metadata of every file of the incident (names come with each file). */
export const listIncidentFiles = (api: ApiClient, incidentUuid: string, signal?: AbortSignal) =>
  api.request<IncidentFileSummary[]>('GET', `/api/incident/${encodeURIComponent(incidentUuid)}/file`, { signal });
