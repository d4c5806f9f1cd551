import type {
  CompanyKeyGrantRequest,
  CompanyKeyRotationRequest,
  RewrapBatch,
  RewrapBatchResult,
  RewrapPage,
  CompanyKeysResponse,
  KeyEndorsementRequest,
  NewPersonKeys,
  OwnKeysResponse,
  PasswordKdfUpgradeRequest,
  TeamKeysResponse,
  UnlockMethodInput,
} from '@whistle/contracts';
import type { ApiClient } from './client';

/**
 * Keys held by people (docs/security.md, "Keys"). What these calls carry is public keys, fingerprints and
 * wrappings; the shell's keyring makes and opens them, never the server.
 */

export const getOwnKeys = (api: ApiClient) => api.request<OwnKeysResponse>('GET', '/api/account/profile/keys');
export const createOwnKeys = (api: ApiClient, body: NewPersonKeys) =>
  api.request<OwnKeysResponse>('PUT', '/api/account/profile/keys', { body });
export const addUnlockMethod = (api: ApiClient, body: UnlockMethodInput) =>
  api.request<OwnKeysResponse>('POST', '/api/account/profile/keys/unlock', { body });
export const removeUnlockMethod = (api: ApiClient, id: string) =>
  api.request<OwnKeysResponse>('DELETE', `/api/account/profile/keys/unlock/${encodeURIComponent(id)}`);

/** The same password derived again with the current kdf (after a sign-in whose salt named an older one). */
export const upgradePasswordKdf = (api: ApiClient, body: PasswordKdfUpgradeRequest) =>
  api.request<void>('PUT', '/api/account/profile/password/kdf', { body });

export const getCompanyKeys = (api: ApiClient) => api.request<CompanyKeysResponse>('GET', '/api/account/company/keys');
export const getTeamKeys = (api: ApiClient) => api.request<TeamKeysResponse>('GET', '/api/account/company/keys/people');
export const migrateCompanyKey = (api: ApiClient, body: { grant: string; aes_encrypted_private_key: string }) =>
  api.request<void>('POST', '/api/account/company/keys/migration', { body });
export const grantCompanyKeyTo = (api: ApiClient, body: CompanyKeyGrantRequest) =>
  api.request<void>('POST', '/api/account/company/keys/grants', { body });
/** An admin's endorsement of a member's key, signed in their browser (docs/security.md, "Signed staff messages"). */
export const postKeyEndorsement = (api: ApiClient, body: KeyEndorsementRequest) =>
  api.request<void>('POST', '/api/account/company/keys/endorsements', { body });
export const requestCompanyKey = (api: ApiClient) =>
  api.request<{ id: string }>('POST', '/api/account/company/keys/requests');
export const declineCompanyKeyRequest = (api: ApiClient, id: string) =>
  api.request<void>('DELETE', `/api/account/company/keys/requests/${encodeURIComponent(id)}`);
export const putRecoveryKit = (api: ApiClient, body: { key_version: number; aes_encrypted_private_key: string }) =>
  api.request<void>('PUT', '/api/account/company/keys/recovery', { body });

/** A company key rotation (docs/security.md, "Rotation"): the keyring starts it, the security page re-wraps the cases. */
export const startCompanyKeyRotation = (api: ApiClient, body: CompanyKeyRotationRequest) =>
  api.request<{ key_version: number }>('POST', '/api/account/company/keys/rotation', { body });
export const getRewrapPage = (
  api: ApiClient,
  query: { key_version: number; after?: string; limit?: number },
  signal?: AbortSignal,
) => {
  const params = new URLSearchParams({ key_version: String(query.key_version) });
  if (query.after) params.set('after', query.after);
  if (query.limit) params.set('limit', String(query.limit));
  return api.request<RewrapPage>('GET', `/api/incident/company-key/rewrap?${params}`, { signal });
};
export const putRewrapped = (api: ApiClient, body: RewrapBatch) =>
  api.request<RewrapBatchResult>('PUT', '/api/incident/company-key/rewrap', { body });
export const completeRewrap = (api: ApiClient, keyVersion: number) =>
  api.request<{ remaining: 0 }>('POST', '/api/incident/company-key/rewrap/complete', {
    body: { key_version: keyVersion },
  });
