import type { IncidentCreateRequest } from '@whistle/contracts';
import { InputError, type Queryable } from '@whistle/service-kit';
import { reportReadersRepository } from '../../data-access/report-readers.repository';

/** Whom a report keeps out, and who may still hold a grant of it beyond its default assignees. */
export interface ReporterExclusions {
  excludedUserIds: string[];
  /**
   * Admins and reviewers who read it through their own grant: the report has no company wrapping, since an admin is
   * kept out.
   */
  grantedEveryCaseIds: string[];
}

export const NO_EXCLUSIONS: ReporterExclusions = { excludedUserIds: [], grantedEveryCaseIds: [] };

const refuse = (field: string, message: string) => new InputError('Bad Request', { [field]: [message] });

/**
 * The people a discloser keeps out of their report (`excluded_key_ids`, docs/security.md "Keeping people out"),
 * checked against its readers: each key must be the current key of a default assignee of the chosen categories, an
 * admin or a reviewer (a key of another company, or anyone else's, is unknown), and at least one reader must remain. The company
 * wrapping goes exactly when an admin is kept out (every admin could open it), and then the report must carry a
 * grant for a remaining reader, or nobody could open it. Refused: a 400, nothing stored.
 */
export async function reporterExclusions(db: Queryable, input: IncidentCreateRequest): Promise<ReporterExclusions> {
  const keyIds = [...new Set((input.excluded_key_ids ?? []).map((id) => id.toLowerCase()))];
  if (keyIds.length === 0) {
    if (input.company_encrypted_passphrase === null)
      throw refuse(
        'company_encrypted_passphrase',
        'A report is wrapped to the company key unless it excludes an admin',
      );
    return NO_EXCLUSIONS;
  }
  const found = await reportReadersRepository.readers(db, input.url_identifier, [...new Set(input.category_uuids)]);
  if (!found) throw refuse('url_identifier', 'Unknown company');
  const byKey = new Map(found.readers.flatMap((reader) => (reader.key_id ? [[reader.key_id, reader] as const] : [])));
  const excluded = keyIds.map((keyId) => byKey.get(keyId));
  if (excluded.some((reader) => reader === undefined))
    throw refuse('excluded_key_ids', 'Unknown person: only the readers the report form lists can be excluded');
  const excludedIds = new Set(excluded.map((reader) => reader!.user_id));
  const remaining = found.readers.filter((reader) => !excludedIds.has(reader.user_id));
  if (remaining.length === 0) throw refuse('excluded_key_ids', 'At least one person must receive the report');

  const adminExcluded = excluded.some((reader) => reader!.admin);
  if (adminExcluded !== (input.company_encrypted_passphrase === null))
    throw refuse(
      'company_encrypted_passphrase',
      adminExcluded
        ? 'A report that excludes an admin is not wrapped to the company key'
        : 'A report is wrapped to the company key unless it excludes an admin',
    );
  if (adminExcluded) {
    const granted = new Set((input.grants ?? []).map((grant) => grant.key_id.toLowerCase()));
    if (!remaining.some((reader) => reader.key_id && granted.has(reader.key_id)))
      throw refuse('grants', 'A report without the company key needs a grant for someone who will read it');
  }
  return {
    excludedUserIds: [...excludedIds],
    grantedEveryCaseIds: adminExcluded
      ? remaining.filter((reader) => reader.every_case).map((reader) => reader.user_id)
      : [],
  };
}
