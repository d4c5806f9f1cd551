import { memo, useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { StaffSession } from '@whistle/api-client';
import { Button, TextField } from '@whistle/ui';
import { searchWords } from '../case/case-search';
import { startSearchWorker } from '../case/search-worker';
import { MATCHES_SENT, type SearchHit, type SearchMessage, type SearchRequest } from '../case/search-job';

type SearchState =
  | { phase: 'idle' }
  | { phase: 'running' | 'cancelled'; done: number; total: number; found: number; hits: SearchHit[] }
  | { phase: 'done'; done: number; total: number; found: number; hits: SearchHit[]; unreadable: number }
  | { phase: 'failed' }
  | { phase: 'locked' };

/**
 * The search in reports: a Web Worker downloads every case the person may open, decrypts and searches it, and posts
 * its matches as it goes. Results live in this component's state only (never stored), and go when the page does.
 */
function useWordSearch(session: StaffSession) {
  const [state, setState] = useState<SearchState>({ phase: 'idle' });
  const worker = useRef<Worker | null>(null);
  useEffect(() => () => worker.current?.terminate(), []);

  const stop = useCallback(() => {
    worker.current?.terminate();
    worker.current = null;
  }, []);

  const start = useCallback(
    (query: string) => {
      const material = session.keyring.workerMaterial();
      const companyPrivateKey = material?.companyPrivateKey;
      // The worker calls the API itself, with the session's token (the client's only Bearer mechanism).
      const token = /^Bearer (.+)$/.exec(session.api.headers().Authorization ?? '')?.[1];
      if (!companyPrivateKey || !token) {
        setState({ phase: 'locked' });
        return;
      }
      stop();
      const running = startSearchWorker();
      worker.current = running;
      setState({ phase: 'running', done: 0, total: 0, found: 0, hits: [] });
      running.onmessage = ({ data }: MessageEvent<SearchMessage>) => {
        if (worker.current !== running) return;
        if (data.type === 'failed') {
          stop();
          setState({ phase: 'failed' });
          return;
        }
        setState((previous) => {
          // The same array while no match is new: the list of matches then does not render again.
          const before = 'hits' in previous ? previous.hits : [];
          const hits = data.hits.length > 0 ? [...before, ...data.hits] : before;
          const { done, total, found } = data;
          return data.type === 'done'
            ? { phase: 'done', done, total, found, hits, unreadable: data.unreadable }
            : { phase: 'running', done, total, found, hits };
        });
        if (data.type === 'done') stop();
      };
      running.onerror = () => {
        stop();
        setState({ phase: 'failed' });
      };
      const request: SearchRequest = {
        job: 'search',
        baseUrl: `${window.location.origin}${session.api.baseUrl}`,
        token,
        query,
        companyPrivateKey,
        ...(material?.previousCompanyPrivateKey
          ? { previousCompanyPrivateKey: material.previousCompanyPrivateKey }
          : {}),
      };
      running.postMessage(request);
    },
    [session, stop],
  );

  const cancel = useCallback(() => {
    stop();
    setState((previous) => (previous.phase === 'running' ? { ...previous, phase: 'cancelled' } : previous));
  }, [stop]);

  return { state, start, cancel };
}

/**
 * The first matches (the worker sends no more than MATCHES_SENT), rendered again only when one is added: progress
 * comes every 100 ms, and re-rendering 100 links each time made main-thread tasks of 200 ms on a busy machine.
 */
const MatchList = memo(function MatchList({ hits }: { hits: readonly SearchHit[] }) {
  const { t } = useTranslation('incidents');
  if (hits.length === 0) return null;
  return (
    <ul className="case-word-search__matches" aria-label={t('wordSearch.matches')}>
      {hits.map((hit) => (
        <li key={hit.uuid}>
          <Link to={`/company/incidents/${hit.uuid}`}>{t('list.number', { number: hit.display_report_number })}</Link>{' '}
          <span className="case-word-search__snippet">{hit.snippet}</span>
        </li>
      ))}
    </ul>
  );
});

/**
 * "Search in reports": words looked for in the decrypted report of every case the person may open, in their
 * browser (the server never sees the words), distinct from the number search that the server answers.
 */
export function WordSearch({ session }: { session: StaffSession }) {
  const { t } = useTranslation('incidents');
  const { state, start, cancel } = useWordSearch(session);
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (searchWords(text).length === 0) {
      setError(t('wordSearch.empty'));
      return;
    }
    setError(undefined);
    start(text);
  };
  const running = state.phase === 'running';
  return (
    <section className="case-word-search" aria-label={t('wordSearch.label')}>
      <form role="search" className="case-search" aria-label={t('wordSearch.label')} onSubmit={submit} noValidate>
        <TextField
          name="words"
          label={t('wordSearch.words')}
          value={text}
          autoComplete="off"
          error={error}
          onChange={(event) => setText(event.target.value)}
        />
        <Button type="submit" busy={running}>
          {t('wordSearch.submit')}
        </Button>
        {running && (
          <Button type="button" variant="secondary" onClick={cancel}>
            {t('wordSearch.cancel')}
          </Button>
        )}
      </form>
      <p className="case-word-search__help">{t('wordSearch.help')}</p>
      {(state.phase === 'running' || state.phase === 'cancelled' || state.phase === 'done') && (
        <div className="wh-stack">
          <p role="status">
            {state.phase === 'running' && (
              <>
                {t('wordSearch.running', { done: state.done, total: state.total })}{' '}
                <progress max={Math.max(1, state.total)} value={state.done} aria-label={t('wordSearch.progress')} />
              </>
            )}
            {state.phase === 'cancelled' && t('wordSearch.cancelled', { done: state.done, total: state.total })}
            {state.phase === 'done' && t('wordSearch.done', { count: state.found, total: state.total })}
          </p>
          {state.phase === 'done' && state.unreadable > 0 && (
            <p className="wh-alert">{t('wordSearch.unreadable', { count: state.unreadable })}</p>
          )}
          <MatchList hits={state.hits} />
          {state.found > state.hits.length && (
            <p>{t('wordSearch.more', { shown: MATCHES_SENT, count: state.found })}</p>
          )}
        </div>
      )}
      {state.phase === 'failed' && (
        <p className="wh-alert" role="alert">
          {t('wordSearch.failed')}
        </p>
      )}
      {state.phase === 'locked' && (
        <p className="wh-alert" role="alert">
          {t('identity.lockedHelp')}
        </p>
      )}
    </section>
  );
}
