import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CaseQuery, StaffSession } from '@whistle/api-client';
import { Button } from '@whistle/ui';
import { extendedWords, type ExtendedWords } from '../case/csv';
import { startExportWorker } from '../case/export-worker';
import type { ExportMessage, ExportRequest } from '../case/export-job';

export type ExportState =
  | { phase: 'idle' }
  | { phase: 'running'; done: number; total: number }
  | { phase: 'done'; count: number }
  | { phase: 'failed' }
  | { phase: 'locked' };

/** `whistle-cases-2026-11-24.csv`, `whistle-cases-extended-2026-11-24.csv` */
const fileName = (extended: boolean) =>
  `whistle-cases-${extended ? 'extended-' : ''}${new Date().toISOString().slice(0, 10)}.csv`;

function save(csv: string, extended: boolean) {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName(extended);
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * The 'Export CSV' action: a Web Worker fetches, decrypts and builds the file while the page stays
 * responsive and shows its progress; the file downloads at the end. The list's current filters apply.
 */
export function useCsvExport(session: StaffSession) {
  const [state, setState] = useState<ExportState>({ phase: 'idle' });
  const worker = useRef<Worker | null>(null);
  useEffect(() => () => worker.current?.terminate(), []);

  const start = useCallback(
    (query: CaseQuery, extended?: ExtendedWords) => {
      const material = session.keyring.workerMaterial();
      const companyPrivateKey = material?.companyPrivateKey;
      // A handler or reviewer without the company key reads the cases they hold a grant of with their own key.
      const person = session.keyring.grantMaterial();
      // The worker calls the API itself, with the session's token (the client's only Bearer mechanism).
      const token = /^Bearer (.+)$/.exec(session.api.headers().Authorization ?? '')?.[1];
      if ((!companyPrivateKey && !person) || !token) {
        setState({ phase: 'locked' });
        return;
      }
      worker.current?.terminate();
      const running = startExportWorker();
      worker.current = running;
      setState({ phase: 'running', done: 0, total: 0 });
      running.onmessage = ({ data }: MessageEvent<ExportMessage>) => {
        if (data.type === 'progress') setState({ phase: 'running', done: data.done, total: data.total });
        else {
          running.terminate();
          worker.current = null;
          if (data.type === 'done') {
            save(data.csv, extended !== undefined);
            setState({ phase: 'done', count: data.count });
          } else setState({ phase: 'failed' });
        }
      };
      running.onerror = () => {
        running.terminate();
        setState({ phase: 'failed' });
      };
      // The export takes the list's filters and sort, not its page nor page size (the export API refuses them).
      const { page: _page, page_size: _pageSize, ...filters } = query;
      const request: ExportRequest = {
        job: 'export',
        baseUrl: `${window.location.origin}${session.api.baseUrl}`,
        token,
        query: filters,
        ...(companyPrivateKey ? { companyPrivateKey } : {}),
        ...(person ? { person } : {}),
        ...(material?.previousCompanyPrivateKey
          ? { previousCompanyPrivateKey: material.previousCompanyPrivateKey }
          : {}),
        extended,
      };
      running.postMessage(request);
    },
    [session],
  );
  return { state, start };
}

/** An export's progress, its end or its failure, in words. */
export function ExportStatus({ state }: { state: ExportState }) {
  const { t } = useTranslation('incidents');
  return (
    <>
      {state.phase === 'running' && (
        <p role="status">
          {t('export.running', { done: state.done, total: state.total })}{' '}
          <progress max={Math.max(1, state.total)} value={state.done} aria-label={t('export.progress')} />
        </p>
      )}
      {state.phase === 'done' && <p role="status">{t('export.done', { count: state.count })}</p>}
      {state.phase === 'failed' && (
        <p className="wh-alert" role="alert">
          {t('export.failed')}
        </p>
      )}
      {state.phase === 'locked' && (
        <p className="wh-alert" role="alert">
          {t('identity.lockedHelp')}
        </p>
      )}
    </>
  );
}

/**
 * The 'Export CSV' button and its progress, a component of its own: a 10,000-case export reports its
 * progress about a hundred times, and each report re-renders only this, not the list page and its table.
 * 'Extended' adds outcome, assignees and deadlines after the spec's columns, in the viewer's language.
 */
export function CsvExport({ session, query }: { session: StaffSession; query: CaseQuery }) {
  const { t } = useTranslation('incidents');
  const { state, start } = useCsvExport(session);
  const [extended, setExtended] = useState(false);
  const extendedId = useId();
  return (
    <div className="case-export">
      <label className="case-export__extended" htmlFor={extendedId}>
        <input
          id={extendedId}
          type="checkbox"
          checked={extended}
          onChange={(event) => setExtended(event.target.checked)}
          aria-describedby={`${extendedId}-help`}
        />{' '}
        {t('export.extended')}
      </label>
      <span className="case-export__help" id={`${extendedId}-help`}>
        {t('export.extendedHelp')}
      </span>
      <Button
        variant="secondary"
        onClick={() => start(query, extended ? extendedWords(t) : undefined)}
        busy={state.phase === 'running'}
      >
        {t('export.action')}
      </Button>
      <ExportStatus state={state} />
    </div>
  );
}
