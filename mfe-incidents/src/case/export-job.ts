// The CSV export, run in the case worker (case.worker.ts), off the page's main thread: fetches the NDJSON export, decrypts each case's identity
// with the company key (a CryptoKey, which structured cloning hands over without exposing it), builds
// the CSV with the CSV library, and reports its progress.
import { createApiClient, exportCases, NoCaseAccessError, type CaseQuery } from '@whistle/api-client';
import type { IncidentKeyMaterial } from '@whistle/contracts';
import { openIncidentWithGrant, type IncidentHandle, type PersonKeys } from '@whistle/crypto';
import { identityThrough, openCase } from './case-key';
import { csvHeader, csvRecord, extendedCells, toCsv, type ExtendedWords } from './csv';

export interface ExportRequest {
  job: 'export';
  baseUrl: string;
  token: string;
  query: CaseQuery;
  /** Absent for someone who reads through per-case grants only. */
  companyPrivateKey?: CryptoKey;
  /** During a company key rotation: the previous key, which still wraps the cases not yet re-wrapped. */
  previousCompanyPrivateKey?: CryptoKey;
  /** The person's own key (non-extractable), which opens the cases they hold a grant of (`keys.my_grant`). */
  person?: { decryptionKey: CryptoKey; publicKeys: PersonKeys['publicKeys'] };
  /** The extended export's words: given, the spec's columns are followed by the extended ones. */
  extended?: ExtendedWords;
}

export type ExportMessage =
  | { type: 'progress'; done: number; total: number }
  | { type: 'done'; csv: string; count: number }
  | { type: 'failed'; status: number | null };

/** Cases decrypted at once: WebCrypto works in parallel. */
const BATCH = 50;
/** Progress reports at most this often: each one is a render on the page's main thread. */
const PROGRESS_INTERVAL_MS = 100;

/** Opens a case with the person's own grant if they hold one, else the company key; neither: NoCaseAccessError. */
function opener(data: ExportRequest) {
  return async (keys: IncidentKeyMaterial): Promise<IncidentHandle> => {
    if (data.person && keys.my_grant)
      return openIncidentWithGrant({
        ...keys,
        grant: keys.my_grant.wrapped_passphrase,
        person: data.person as PersonKeys,
      });
    if (!data.companyPrivateKey) throw new NoCaseAccessError();
    return openCase(keys, data.companyPrivateKey, data.previousCompanyPrivateKey);
  };
}

export async function runExport(data: ExportRequest, post: (message: ExportMessage) => void): Promise<void> {
  const api = createApiClient({ baseUrl: data.baseUrl, getToken: () => data.token });
  let total = 0;
  let reportedAt = 0;
  const records: string[][] = [];
  try {
    let batch: Parameters<typeof csvRecord>[0][] = [];
    const flush = async () => {
      const open = opener(data);
      const identities = await Promise.all(batch.map((row) => identityThrough(row, open)));
      const { extended } = data;
      batch.forEach((row, index) => {
        const record = csvRecord(row, identities[index]!);
        records.push(extended ? [...record, ...extendedCells(row, extended)] : record);
      });
      batch = [];
      if (performance.now() - reportedAt < PROGRESS_INTERVAL_MS) return;
      reportedAt = performance.now();
      post({ type: 'progress', done: records.length, total });
    };
    for await (const row of exportCases(api, data.query, { onTotal: (count) => (total = count) })) {
      batch.push(row);
      if (batch.length === BATCH) await flush();
    }
    await flush();
    post({ type: 'done', csv: toCsv(records, csvHeader(data.extended)), count: records.length });
  } catch (error) {
    post({ type: 'failed', status: (error as { status?: number }).status ?? null });
  }
}
