import type { CompanyPublicView, RecipientKey } from '@whistle/contracts';

/** Someone who would read the report, as the company view lists them (never a user id). */
export interface ReportReader {
  keyId: string;
  publicKey: string;
  role: NonNullable<RecipientKey['role']>;
  /** Null when the company does not show the case team's names on the report form. */
  name: string | null;
  /** A default assignee of a chosen category (gets a grant of the report even when the company key wraps it). */
  assignee: boolean;
}

type ReadersView = Partial<Pick<CompanyPublicView, 'categories' | 'every_case_keys'>>;

const readerOf = (key: RecipientKey, assignee: boolean): ReportReader => ({
  keyId: key.key_id,
  publicKey: key.public_key,
  role: key.role ?? 'HANDLER',
  name: key.display_name ?? null,
  assignee,
});

/**
 * Who reads a report of `categoryIds` (docs/security.md, "Keeping people out"): the chosen categories' default
 * assignees, then the admins and reviewers (who see every report), each once, by key id.
 */
export function readersOf(company: ReadersView, categoryIds: readonly string[]): ReportReader[] {
  const readers = new Map<string, ReportReader>();
  for (const category of company.categories ?? [])
    if (categoryIds.includes(category.uuid))
      for (const key of category.recipient_keys ?? []) readers.set(key.key_id, readerOf(key, true));
  for (const key of company.every_case_keys ?? []) readers.set(key.key_id, readerOf(key, readers.has(key.key_id)));
  return [...readers.values()];
}

/** What the report sends about its readers: the grants it keeps, whom it excludes, and whether the company key wraps it. */
export interface ReaderChoice {
  /** Key ids whose grants go with the report. */
  grantedKeyIds: Set<string>;
  /** The discloser's exclusions among this report's readers (one made for a category no longer chosen drops). */
  excludedKeyIds: string[];
  /** False when an admin is kept out: every admin could open the company wrapping, so there is none. */
  companyWrapped: boolean;
}

/**
 * The grants and exclusions of a report: the default assignees the discloser keeps get a grant; the admins read
 * through the company key, unless the discloser kept one of them out, when every remaining reader (admins and
 * reviewers too) gets a grant of their own instead and the report is not wrapped to the company key at all.
 */
export function readerChoice(
  company: ReadersView,
  categoryIds: readonly string[],
  excludedKeyIds: readonly string[],
): ReaderChoice {
  const readers = readersOf(company, categoryIds);
  const excluded = readers.filter((reader) => excludedKeyIds.includes(reader.keyId));
  const companyWrapped = !excluded.some((reader) => reader.role === 'ADMIN');
  const granted = readers.filter((reader) => !excluded.includes(reader) && (reader.assignee || !companyWrapped));
  return {
    grantedKeyIds: new Set(granted.map((reader) => reader.keyId)),
    excludedKeyIds: excluded.map((reader) => reader.keyId),
    companyWrapped,
  };
}

/** Whether anybody is left to read the report (nobody listed at all: the company's team reads it as before). */
export function someoneReads(company: ReadersView, categoryIds: readonly string[], excludedKeyIds: readonly string[]) {
  const readers = readersOf(company, categoryIds);
  return readers.length === 0 || readers.some((reader) => !excludedKeyIds.includes(reader.keyId));
}
