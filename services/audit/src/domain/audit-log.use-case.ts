import type { AuditLogEntry, AuditLogQuery, AuditLogResponse, AuditVerification } from '@whistle/contracts';
import type { Database } from '@whistle/service-kit';
import type { StaffPrincipal } from '@whistle/tokens';
import { auditEventRepository, type AuditEntryRow, type AuditFilter } from '../data-access/audit-event.repository';

export function toEntry(row: AuditEntryRow): AuditLogEntry {
  return {
    uuid: row.id,
    action: row.action,
    success: row.success,
    table_identifier: row.table_identifier,
    object_uuid: row.object_id,
    incident_uuid: row.incident_id,
    actor: { type: row.actor_type, uuid: row.actor_user_id, name: row.actor_name },
    occurred_at: row.occurred_at.toISOString(),
  };
}

/**
 * The caller's company only, whatever the query asks, and without the cases the caller is kept out of (a discloser's
 * exclusion or a conflict of interest): the trail must not tell them such a case exists.
 */
export function filterOf(principal: StaffPrincipal, query: Omit<AuditLogQuery, 'page' | 'page_size'>): AuditFilter {
  return {
    companyId: principal.companyId,
    viewerId: principal.userId,
    tableIdentifiers: query.table_identifiers,
    objectId: query.object,
    incidentId: query.incident,
    userId: query.user,
    action: query.action,
    from: query.from,
    to: query.to,
  };
}

/** GET /api/account/company/audit_log/: one page of the company's trail, newest first. */
export async function auditLog(
  db: Database,
  principal: StaffPrincipal,
  query: AuditLogQuery,
): Promise<AuditLogResponse> {
  const { rows, count } = await auditEventRepository.page(db, filterOf(principal, query), {
    offset: (query.page - 1) * query.page_size,
    limit: query.page_size,
  });
  return { count, page: query.page, page_size: query.page_size, results: rows.map(toEntry) };
}

/** GET /api/account/company/audit_log/verify: the company's hash chain, link by link. */
export async function verifyAuditChain(db: Database, principal: StaffPrincipal): Promise<AuditVerification> {
  const { checked, broken, truncated } = await auditEventRepository.firstBrokenLink(db, principal.companyId);
  return {
    intact: !broken && !truncated,
    checked,
    first_broken: broken ? { uuid: broken.id, sequence: Number(broken.seq) } : null,
    truncated,
  };
}

/** The whole filtered trail in chain order, a batch at a time (the CSV export). */
export async function* auditEntries(db: Database, filter: AuditFilter, batchSize = 500): AsyncGenerator<AuditLogEntry> {
  let after = '0';
  for (;;) {
    const rows = await auditEventRepository.batch(db, filter, after, batchSize);
    for (const row of rows) yield toEntry(row);
    if (rows.length < batchSize) return;
    after = rows[rows.length - 1]!.seq;
  }
}
