import { ApiError, getDiscloserIncident, withToken, type ApiClient } from '@whistle/api-client';
import type { IncidentDiscloserView } from '@whistle/contracts';
import {
  CryptoFormatError,
  DecryptionError,
  deriveDiscloserAuthToken,
  openIncidentAsDiscloser,
  openPinnedTeamKeys,
  parseSecretCode,
  type IncidentHandle,
  type TeamKey,
} from '@whistle/crypto';
import { openReportFields } from '@whistle/ui/report';
import type { OpenFailure } from '../session/status-outcome.store';

/** An incident opened with its secret code: everything the review page shows and sends with. */
export interface DiscloserSession {
  urlIdentifier: string;
  incident: Pick<
    IncidentDiscloserView,
    | 'uuid'
    | 'display_report_number'
    | 'status'
    | 'created'
    | 'location'
    | 'categories'
    | 'report_channel'
    | 'recorded_by_staff'
    | 'record_approved_at'
  >;
  /** Decrypted report fields by name ('' for one that did not open). */
  fields: Record<string, string>;
  /** Fields that did not open as themselves (moved, swapped or altered): shown as "This text cannot be verified". */
  unverifiableFields: ReadonlySet<string>;
  handle: IncidentHandle;
  /**
   * The case team's signing keys pinned in the report at its making, against which staff messages are checked; null
   * for a report from before the pinning, whose messages show as before.
   */
  pinnedTeamKeys: readonly TeamKey[] | null;
  /** API client sending the discloser session token: messages and files of this incident only. */
  api: ApiClient;
}

export class OpenIncidentError extends Error {
  override readonly name = 'OpenIncidentError';

  constructor(readonly reason: OpenFailure) {
    super(reason);
  }
}

const failureOf = (error: unknown): OpenFailure => {
  if (error instanceof CryptoFormatError || error instanceof DecryptionError) return 'invalidCode';
  if (error instanceof ApiError && (error.status === 401 || error.status === 400 || error.status === 404))
    return 'invalidCode';
  if (error instanceof ApiError && error.status === 429) return 'tooManyAttempts';
  return 'unexpected';
};

/**
 * Spec §4 review: the secret code gives the retrieval id and the discloser passphrase; the
 * passphrase derives the auth token the server checks, then opens the incident key here.
 */
export async function openDiscloserSession(
  api: ApiClient,
  urlIdentifier: string,
  secretCode: string,
): Promise<DiscloserSession> {
  try {
    // Spaces never belong to a code: the success page shows it in groups, which people may write down spaced.
    const { retrievalId, passphrase } = parseSecretCode(secretCode.replace(/\s+/g, ''));
    const authToken = await deriveDiscloserAuthToken(passphrase);
    const view = await getDiscloserIncident(withToken(api, authToken), urlIdentifier, retrievalId);
    const handle = await openIncidentAsDiscloser({ ...view, discloserPassphrase: passphrase });
    // Opened: the list is the one the report was sealed with.
    const pinnedTeamKeys = await openPinnedTeamKeys({ ...view, discloserPassphrase: passphrase });
    // A field that does not open is said so on the page: the report still opens.
    const { fields, unverifiable } = await openReportFields(handle, view.fields);
    return {
      urlIdentifier,
      incident: {
        uuid: view.uuid,
        display_report_number: view.display_report_number,
        status: view.status,
        created: view.created,
        location: view.location,
        categories: view.categories,
        report_channel: view.report_channel,
        recorded_by_staff: view.recorded_by_staff ?? false,
        record_approved_at: view.record_approved_at ?? null,
      },
      fields,
      unverifiableFields: unverifiable,
      handle,
      pinnedTeamKeys,
      api: withToken(api, view.token),
    };
  } catch (error) {
    throw new OpenIncidentError(failureOf(error));
  }
}
