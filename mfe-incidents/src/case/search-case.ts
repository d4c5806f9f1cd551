import type { IncidentSearchCorpusRow } from '@whistle/contracts';
import { decryptContent } from '@whistle/crypto';
import { openCase } from './case-key';
import { matchCase } from './case-search';

export interface SearchHit {
  uuid: string;
  display_report_number: number;
  snippet: string;
}

/**
 * One case of the corpus opened with the company key, its report fields decrypted each under its own name, and
 * searched: its hit or null, and whether all of it could be read (a case or field that does not open, altered or
 * moved, is left out of the search and counted, never an error).
 */
export async function searchCase(
  row: IncidentSearchCorpusRow,
  words: readonly string[],
  companyPrivateKey: CryptoKey,
  previousCompanyPrivateKey?: CryptoKey,
): Promise<{ hit: SearchHit | null; readable: boolean }> {
  let readable = true;
  try {
    const handle = await openCase(row.keys, companyPrivateKey, previousCompanyPrivateKey);
    // The reporter's page language is no content: a search for "de" must not find every report written in German.
    const content = row.fields.filter((field) => field.name !== 'language');
    const fields = await Promise.all(
      content.map(async ({ name, value }) => {
        try {
          return { name, value: await decryptContent(handle, value, { kind: 'field', name }) };
        } catch {
          readable = false;
          return null;
        }
      }),
    );
    const match = matchCase(
      fields.filter((field) => field !== null),
      words,
    );
    const hit = match
      ? { uuid: row.uuid, display_report_number: row.display_report_number, snippet: match.snippet }
      : null;
    return { hit, readable };
  } catch {
    return { hit: null, readable: false };
  }
}
