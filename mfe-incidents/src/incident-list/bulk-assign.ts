import { isApiError, updateCase, type ApiClient, type StaffKeyring } from '@whistle/api-client';
import type { IncidentListItem, TeamKeysResponse } from '@whistle/contracts';
import { grantsFor } from '../case/case-grants';

/** Why one case of a bulk assignment was not assigned, in the words the page has for it. */
export type BulkFailure = 'refused' | 'notAllowed' | 'failed';

export interface BulkOutcome {
  assigned: string[];
  failed: { uuid: string; number: number; reason: BulkFailure }[];
}

function reasonOf(error: unknown): BulkFailure {
  if (!isApiError(error)) return 'failed';
  // 400: someone chosen is excluded from this case, or no longer on the team (the server's checks of one case).
  if (error.status === 400) return 'refused';
  if (error.status === 403 || error.status === 404) return 'notAllowed';
  return 'failed';
}

/**
 * Adds `chosen` to the assignees of each case, one case after the other, as the case page assigns one: the whole new
 * list of assignees (those the row shows, and the chosen) with the case's passphrase wrapped to each of them who has
 * keys (the keyring checks every key against the fingerprint the team list shows). Each case is one PUT, applied whole
 * or not at all by the server; a case whose grants cannot be made is not sent. Nobody is unassigned.
 */
export async function assignCases(
  api: ApiClient,
  keyring: StaffKeyring,
  team: TeamKeysResponse | undefined,
  items: readonly IncidentListItem[],
  chosen: readonly string[],
  onProgress: (done: number) => void = () => undefined,
): Promise<BulkOutcome> {
  const outcome: BulkOutcome = { assigned: [], failed: [] };
  for (const [index, item] of items.entries()) {
    const assignees = [...new Set([...item.assignees.map((person) => person.uuid), ...chosen])];
    try {
      const grants = await grantsFor(keyring, item.keys, team, assignees);
      await updateCase(
        api,
        item.uuid,
        grants.length > 0 ? { assignee_uuids: assignees, grants } : { assignee_uuids: assignees },
      );
      outcome.assigned.push(item.uuid);
    } catch (error) {
      outcome.failed.push({ uuid: item.uuid, number: item.display_report_number, reason: reasonOf(error) });
    }
    onProgress(index + 1);
  }
  return outcome;
}
