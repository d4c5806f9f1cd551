import { useState } from 'react';
import { listAuditLog } from '@whistle/api-client';
import type { AuditLogEntry, AuditLogResponse } from '@whistle/contracts';
import { useLoad } from '@whistle/ui';
import { useStaffSession } from '@whistle/ui/staff';

/** Entries per request: a case's trail grows with every opening, so it comes a page at a time. */
export const CASE_AUDIT_PAGE_SIZE = 20;

export type CaseAuditState =
  | { phase: 'loading' }
  | { phase: 'failed' }
  | {
      phase: 'loaded';
      entries: AuditLogEntry[];
      count: number;
      page: number;
      loadingMore: boolean;
      /** The next page could not be loaded; what is shown stays. */
      moreFailed: boolean;
    };

type Loaded = Extract<CaseAuditState, { phase: 'loaded' }>;

/** The trail shown: a first page and the pages `more()` appended to it, which go when the first page does. */
interface Trail extends Loaded {
  first: AuditLogResponse;
}

const trailOf = (first: AuditLogResponse): Trail => ({
  phase: 'loaded',
  first,
  entries: first.results,
  count: first.count,
  page: first.page,
  loadingMore: false,
  moreFailed: false,
});

const withoutFirstPage = ({ first: _first, ...loaded }: Trail): Loaded => loaded;

/**
 * The audit trail of one case (GET /api/account/company/audit_log/?incident=…, ADMIN only), newest first,
 * a page at a time; `more()` appends the next page. Asked again whenever the case view changes (the case was
 * reloaded after a change), so the newest entries show; the trail on screen stays meanwhile.
 */
export function useCaseAudit(view: { uuid: string }) {
  const { api } = useStaffSession();
  const first = useLoad(
    (signal) => listAuditLog(api, { incident: view.uuid, page_size: CASE_AUDIT_PAGE_SIZE }, signal),
    [api, view],
    { shows: () => true, keepPrevious: true },
  );
  const [extended, setExtended] = useState<Trail>();
  const trail = first.data && (extended?.first === first.data ? extended : trailOf(first.data));

  async function more() {
    if (!trail || trail.loadingMore) return;
    setExtended({ ...trail, loadingMore: true, moreFailed: false });
    try {
      const next = await listAuditLog(api, {
        incident: view.uuid,
        page: trail.page + 1,
        page_size: CASE_AUDIT_PAGE_SIZE,
      });
      // Entries recorded meanwhile shift the pages: an entry already shown is not shown twice.
      const shown = new Set(trail.entries.map((entry) => entry.uuid));
      const entries = [...trail.entries, ...next.results.filter((entry) => !shown.has(entry.uuid))];
      setExtended({ ...trail, entries, count: next.count, page: next.page, loadingMore: false, moreFailed: false });
    } catch {
      setExtended({ ...trail, moreFailed: true });
    }
  }

  const state: CaseAuditState =
    first.error !== undefined ? { phase: 'failed' } : trail ? withoutFirstPage(trail) : { phase: 'loading' };
  return { state, more };
}
