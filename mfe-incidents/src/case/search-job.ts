// The search in reports, run in the case worker (case.worker.ts), off the page's main thread: downloads the search corpus (every case the person may open),
// decrypts each case's report fields with the company key (a CryptoKey, handed over by structured cloning without
// exposing it), matches the words, and posts matches and progress as it goes. Nothing decrypted leaves the worker
// but the matches' snippets, and nothing is stored: the page drops the worker, and everything in it, when done.
import { createApiClient, searchCorpus } from '@whistle/api-client';
import type { IncidentSearchCorpusRow } from '@whistle/contracts';
import { searchWords } from './case-search';
import { searchCase, type SearchHit } from './search-case';

export type { SearchHit };

export interface SearchRequest {
  job: 'search';
  baseUrl: string;
  token: string;
  query: string;
  companyPrivateKey: CryptoKey;
  /** During a company key rotation: the previous key, which still wraps the cases not yet re-wrapped. */
  previousCompanyPrivateKey?: CryptoKey;
}

/**
 * Matches sent to the page at most (the rest only counted): a word in every case would otherwise hand the page
 * thousands of decrypted snippets to hold and clone, when it shows the first ones.
 */
export const MATCHES_SENT = 100;

export type SearchMessage =
  | { type: 'progress'; done: number; total: number; found: number; hits: SearchHit[] }
  | { type: 'done'; done: number; total: number; found: number; hits: SearchHit[]; unreadable: number }
  | { type: 'failed'; status: number | null };

/** Cases decrypted at once: WebCrypto works in parallel. */
const BATCH = 50;
/** Progress at most this often: each report is a render on the page's main thread. */
const PROGRESS_INTERVAL_MS = 100;

export async function runSearch(data: SearchRequest, post: (message: SearchMessage) => void): Promise<void> {
  const api = createApiClient({ baseUrl: data.baseUrl, getToken: () => data.token });
  const words = searchWords(data.query);
  let total = 0;
  let done = 0;
  let unreadable = 0;
  let found = 0;
  let reportedAt = 0;
  // Matches not yet posted: each report carries only the new ones.
  let hits: SearchHit[] = [];
  try {
    let batch: IncidentSearchCorpusRow[] = [];
    let anyPosted = false;
    const flush = async () => {
      const searched = await Promise.all(
        batch.map((row) => searchCase(row, words, data.companyPrivateKey, data.previousCompanyPrivateKey)),
      );
      for (const { hit, readable } of searched) {
        if (hit && found < MATCHES_SENT) hits.push(hit);
        if (hit) found += 1;
        if (!readable) unreadable += 1;
      }
      done += batch.length;
      batch = [];
      // The first matches are shown as soon as found; then progress at most every interval.
      const firstHits = !anyPosted && hits.length > 0;
      if (!firstHits && performance.now() - reportedAt < PROGRESS_INTERVAL_MS) return;
      anyPosted ||= hits.length > 0;
      reportedAt = performance.now();
      post({ type: 'progress', done, total, found, hits });
      hits = [];
    };
    for await (const row of searchCorpus(api, { onTotal: (count) => (total = count) })) {
      batch.push(row);
      if (batch.length === BATCH) await flush();
    }
    await flush();
    post({ type: 'done', done, total, found, hits, unreadable });
  } catch (error) {
    post({ type: 'failed', status: (error as { status?: number }).status ?? null });
  }
}
