import { useCallback, useEffect, useState } from 'react';
import { listAuditLog } from '@whistle/api-client';
import type { AuditLogEntry } from '@whistle/contracts';
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

/**
 * The audit trail of one case (GET /api/account/company/audit_log/?incident=…, ADMIN only), newest first,
 * a page at a time; `more()` appends the next page. Asked again whenever `revision` changes (the case was
 * reloaded after a change), so the newest entries show.
 */
export function useCaseAudit(incidentUuid: string, revision: unknown) {
  const { api } = useStaffSession();
  const [state, setState] = useState<CaseAuditState>({ phase: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    listAuditLog(api, { incident: incidentUuid, page_size: CASE_AUDIT_PAGE_SIZE }, controller.signal).then(
      ({ results, count, page }) =>
        setState({ phase: 'loaded', entries: results, count, page, loadingMore: false, moreFailed: false }),
      () => {
        if (!controller.signal.aborted) setState({ phase: 'failed' });
      },
    );
    return () => controller.abort();
  }, [api, incidentUuid, revision]);

  const more = useCallback(async () => {
    if (state.phase !== 'loaded' || state.loadingMore) return;
    const current = state;
    setState({ ...current, loadingMore: true, moreFailed: false });
    try {
      const next = await listAuditLog(api, {
        incident: incidentUuid,
        page: current.page + 1,
        page_size: CASE_AUDIT_PAGE_SIZE,
      });
      // Entries recorded meanwhile shift the pages: an entry already shown is not shown twice.
      const shown = new Set(current.entries.map((entry) => entry.uuid));
      setState({
        phase: 'loaded',
        entries: [...current.entries, ...next.results.filter((entry) => !shown.has(entry.uuid))],
        count: next.count,
        page: next.page,
        loadingMore: false,
        moreFailed: false,
      });
    } catch {
      setState({ ...current, moreFailed: true });
    }
  }, [api, incidentUuid, state]);

  return { state, more };
}
