import { ApiError, getDiscloserIncident, withToken, type ApiClient } from '@whistle/api-client';
import type { IncidentDiscloserView } from '@whistle/contracts';
import {
  CryptoFormatError,
  DecryptionError,
  decryptFields,
  deriveDiscloserAuthToken,
  openIncidentAsDiscloser,
  parseSecretCode,
  type IncidentHandle,
} from '@whistle/crypto';

/** An incident opened with its secret code: everything the review page shows and sends with. */
export interface DiscloserSession {
  urlIdentifier: string;
  incident: Pick<
    IncidentDiscloserView,
    'uuid' | 'display_report_number' | 'status' | 'created' | 'location' | 'categories'
  >;
  /** Decrypted report fields by name. */
  fields: Record<string, string>;
  handle: IncidentHandle;
  /** API client sending the discloser session token: messages and files of this incident only. */
  api: ApiClient;
}

export type OpenFailure = 'invalidCode' | 'tooManyAttempts' | 'unexpected';

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
    const { retrievalId, passphrase } = parseSecretCode(secretCode);
    const authToken = await deriveDiscloserAuthToken(passphrase);
    const view = await getDiscloserIncident(withToken(api, authToken), urlIdentifier, retrievalId);
    const handle = await openIncidentAsDiscloser({ ...view, discloserPassphrase: passphrase });
    const fields = Object.fromEntries(
      (await decryptFields(handle, view.fields)).map(({ name, value }) => [name, value]),
    );
    return {
      urlIdentifier,
      incident: {
        uuid: view.uuid,
        display_report_number: view.display_report_number,
        status: view.status,
        created: view.created,
        location: view.location,
        categories: view.categories,
      },
      fields,
      handle,
      api: withToken(api, view.token),
    };
  } catch (error) {
    throw new OpenIncidentError(failureOf(error));
  }
}

/**
 * The outcome of the last secret code entered: the opened incident or why it did not open. Memory
 * only, so a reload asks for the code again. Kept here rather than as the route's action data: the
 * shell's single-spa replays each history change as a popstate, which React Router treats as a new
 * navigation that drops action data.
 */
let current:
  { urlIdentifier: string; session: DiscloserSession } | { urlIdentifier: string; failure: OpenFailure } | null = null;

export const keepSession = (session: DiscloserSession) => {
  current = { urlIdentifier: session.urlIdentifier, session };
};
export const keepFailure = (urlIdentifier: string, failure: OpenFailure) => {
  current = { urlIdentifier, failure };
};
export const forgetOutcome = () => {
  current = null;
};
export const currentSession = (urlIdentifier: string) =>
  current?.urlIdentifier === urlIdentifier && 'session' in current ? current.session : null;
export const currentFailure = (urlIdentifier: string) =>
  current?.urlIdentifier === urlIdentifier && 'failure' in current ? current.failure : null;
