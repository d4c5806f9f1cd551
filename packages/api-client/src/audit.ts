import type { AuditLogQuery, AuditLogResponse, AuditVerification } from '@whistle/contracts';
import { ApiError } from './api-error';
import { caseQueryString } from './cases';
import { readBody, type ApiClient } from './client';

/**
 * The audit trail's filters and page (the keys of `auditLogQuerySchema`), as a page URL holds them: the
 * server checks the values and answers 400 with `errors` per parameter.
 */
export type AuditLogParams = {
  [K in keyof AuditLogQuery]?: K extends 'table_identifiers' ? string | readonly string[] : string | number;
};

const AUDIT_LOG = '/api/account/company/audit_log';

const queryOf = (params: AuditLogParams) =>
  caseQueryString(
    Object.fromEntries(
      Object.entries(params).map(([key, value]) => [key, typeof value === 'number' ? String(value) : value]),
    ),
  );

/** GET /api/account/company/audit_log/ (ADMIN): one page of the company's trail, newest first. */
export const listAuditLog = (api: ApiClient, params: AuditLogParams, signal?: AbortSignal) =>
  api.request<AuditLogResponse>('GET', `${AUDIT_LOG}/${queryOf(params)}`, { signal });

/** GET /api/account/company/audit_log/verify (ADMIN): the hash chain checked link by link. */
export const verifyAuditLog = (api: ApiClient, signal?: AbortSignal) =>
  api.request<AuditVerification>('GET', `${AUDIT_LOG}/verify`, { signal });

/**
 * GET /api/account/company/audit_log/export (ADMIN): the filtered trail as the server's CSV, as a blob for
 * the browser's download. Fetched here (not a link) because only the client carries the Bearer token.
 */
export async function exportAuditLog(
  api: ApiClient,
  params: Omit<AuditLogParams, 'page' | 'page_size'>,
  signal?: AbortSignal,
): Promise<Blob> {
  const url = `${api.baseUrl}${AUDIT_LOG}/export${queryOf(params)}`;
  const response = await fetch(url, { headers: api.headers('text/csv'), credentials: 'omit', signal });
  if (!response.ok) throw new ApiError(url, response.status, response.statusText, await readBody(response));
  return response.blob();
}
