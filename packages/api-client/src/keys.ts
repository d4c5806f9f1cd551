import type {
  CompanyKeyGrantRequest,
  CompanyKeysResponse,
  NewPersonKeys,
  OwnKeysResponse,
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

export const getCompanyKeys = (api: ApiClient) => api.request<CompanyKeysResponse>('GET', '/api/account/company/keys');
export const getTeamKeys = (api: ApiClient) => api.request<TeamKeysResponse>('GET', '/api/account/company/keys/people');
export const migrateCompanyKey = (api: ApiClient, body: { grant: string; aes_encrypted_private_key: string }) =>
  api.request<void>('POST', '/api/account/company/keys/migration', { body });
export const grantCompanyKeyTo = (api: ApiClient, body: CompanyKeyGrantRequest) =>
  api.request<void>('POST', '/api/account/company/keys/grants', { body });
export const requestCompanyKey = (api: ApiClient) =>
  api.request<{ id: string }>('POST', '/api/account/company/keys/requests');
export const declineCompanyKeyRequest = (api: ApiClient, id: string) =>
  api.request<void>('DELETE', `/api/account/company/keys/requests/${encodeURIComponent(id)}`);
export const putRecoveryKit = (api: ApiClient, body: { key_version: number; aes_encrypted_private_key: string }) =>
  api.request<void>('PUT', '/api/account/company/keys/recovery', { body });
