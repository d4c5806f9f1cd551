import { listAuditLog, type ApiClient } from '@whistle/api-client';
import type { AuditLogEntry } from '@whistle/contracts';
import { useLoad } from '@whistle/ui';
import { useStaffSession } from '@whistle/ui/staff';

/** Entries per request: the largest page the audit log serves. */
export const CASE_AUDIT_PAGE_SIZE = 200;

export type CaseAuditState = { phase: 'loading' } | { phase: 'failed' } | { phase: 'loaded'; entries: AuditLogEntry[] };

/**
 * The whole trail of one case, every page of it: the timeline merges it in time order with the case's records,
 * so a page of the newest would leave gaps. A case's trail is short once an opening is recorded once a session.
 */
async function wholeTrail(api: ApiClient, incident: string, signal: AbortSignal): Promise<AuditLogEntry[]> {
  const seen = new Map<string, AuditLogEntry>();
  for (let page = 1; ; page += 1) {
    const answer = await listAuditLog(api, { incident, page, page_size: CASE_AUDIT_PAGE_SIZE }, signal);
    // Entries recorded meanwhile shift the pages: an entry is kept once.
    for (const entry of answer.results) seen.set(entry.uuid, entry);
    if (answer.results.length === 0 || page * CASE_AUDIT_PAGE_SIZE >= answer.count) return [...seen.values()];
  }
}

/**
 * The audit trail of one case (GET /api/account/company/audit_log/?incident=…), for those who may read it
 * (`readable`: admins; for others it is never asked, and undefined). Asked again whenever the case view changes
 * (the case was reloaded after a change), so the newest entries show; the trail on screen stays meanwhile.
 */
export function useCaseAudit(view: { uuid: string }, readable: boolean): CaseAuditState | undefined {
  const { api } = useStaffSession();
  const trail = useLoad(
    async (signal) => (readable ? wholeTrail(api, view.uuid, signal) : null),
    [api, view, readable],
    { shows: () => true, keepPrevious: true },
  );
  if (!readable) return undefined;
  if (trail.data) return { phase: 'loaded', entries: trail.data };
  return trail.error !== undefined ? { phase: 'failed' } : { phase: 'loading' };
}
