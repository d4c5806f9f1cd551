import type {
  LoginResponse,
  MailPreferences,
  MfaSetupResponse,
  OwnCompany,
  ProfileUpdateResponse,
  StaffKeysResponse,
  TokenResponse,
  UserProfile,
} from '@whistle/contracts';
import { ApiError } from './api-error';
import { withToken, type ApiClient } from './client';

/** POST /api/account/token: a token, or an MFA challenge whose id becomes the session token for the MFA screen. */
export const login = (api: ApiClient, username: string, password: string) =>
  api.request<LoginResponse>('POST', '/api/account/token', { body: { username, password } });

/** POST /api/account/token/mfa with the challenge id as Bearer. */
export const answerMfaChallenge = (api: ApiClient, challengeId: string, challengeCode: string) =>
  withToken(api, challengeId).request<TokenResponse>('POST', '/api/account/token/mfa', {
    body: { challenge_code: challengeCode },
  });

/**
 * POST /api/account/company/sso/token: the one-time code of the SSO return; same answer as login. With this
 * browser's cookies: the code is redeemed only with the SSO nonce of the browser that started the sign-in.
 */
export const exchangeSsoCode = (api: ApiClient, code: string) =>
  api.request<LoginResponse>('POST', '/api/account/company/sso/token', {
    body: { code },
    credentials: 'same-origin',
  });

/** Where the SSO e-mail form posts (form-encoded, a real navigation: the answer redirects to the IdP). */
export const ssoRedirectUrl = (api: ApiClient) => `${api.baseUrl}/api/account/company/sso/redirect`;

/** POST /api/account/token/refresh: a new 15-minute token for the live one. */
export const refreshToken = (api: ApiClient) => api.request<TokenResponse>('POST', '/api/account/token/refresh');

/** POST /api/account/token/revoke: logout. */
export const revokeToken = (api: ApiClient) => api.request<void>('POST', '/api/account/token/revoke');

export const getOwnCompany = (api: ApiClient, signal?: AbortSignal) =>
  api.request<OwnCompany>('GET', '/api/account/company/', { signal });

export const getOwnProfile = (api: ApiClient, signal?: AbortSignal) =>
  api.request<UserProfile>('GET', '/api/account/company/profile/', { signal });

/** GET /api/account/company/profile/keys: what unlocks the company private key; never stored or logged. */
export const getStaffKeys = (api: ApiClient) =>
  api.request<StaffKeysResponse>('GET', '/api/account/company/profile/keys');

/** POST /api/account/company/profile/mfa without a body: a new pending factor and its QR code. */
export const startMfaSetup = (api: ApiClient) =>
  api.request<MfaSetupResponse>('POST', '/api/account/company/profile/mfa');

/** The same call with the code: enables the pending factor; the answer's token replaces the session's. */
export const confirmMfaSetup = (api: ApiClient, challengeCode: string) =>
  api.request<TokenResponse>('POST', '/api/account/company/profile/mfa', { body: { challenge_code: challengeCode } });

export const updateFullName = (api: ApiClient, fullName: string) =>
  api.request<ProfileUpdateResponse>('PUT', '/api/account/profile', { body: { full_name: fullName } });

/** GET /api/account/profile/notifications: the signed-in member's mail language and the kinds they want. */
export const getMailPreferences = (api: ApiClient, signal?: AbortSignal) =>
  api.request<MailPreferences>('GET', '/api/account/profile/notifications', { signal });

/** PUT /api/account/profile/notifications: the company's own switches still apply on top of these. */
export const setMailPreferences = (api: ApiClient, preferences: MailPreferences) =>
  api.request<MailPreferences>('PUT', '/api/account/profile/notifications', { body: preferences });

/** A password change ends the other sessions; the answer's `token` replaces the caller's. */
export const changePassword = (api: ApiClient, currentPassword: string, password: string) =>
  api.request<ProfileUpdateResponse>('PUT', '/api/account/profile', {
    body: { password, current_password: currentPassword },
  });

/** PUT /api/account/profile/password/reset: the e-mail travels as the Bearer (spec §7 "temporary token"). */
export const requestPasswordReset = (api: ApiClient, email: string) =>
  withToken(api, email).request<void>('PUT', '/api/account/profile/password/reset');

/** PUT /api/account/profile with the token of a reset or invitation link as Bearer. */
export const setPasswordWithLink = (api: ApiClient, linkToken: string, password: string) =>
  withToken(api, linkToken).request<void>('PUT', '/api/account/profile', { body: { password } });

export interface StaffState {
  profile: UserProfile;
  company: OwnCompany;
}

/**
 * What the shell hands every company-app remote (single-spa custom prop `session`). The shell holds
 * the token and the unlocked company private key; remotes never read storage themselves.
 */
export interface StaffSession {
  /** API client sending the current Bearer token. */
  readonly api: ApiClient;
  /** Profile and company of the signed-in user, loaded once per sign-in (rejects when not signed in). */
  staff(): Promise<StaffState>;
  /** Reloads profile and company (after an update) and tells subscribers. */
  reloadStaff(): Promise<StaffState>;
  subscribe(listener: (state: StaffState) => void): () => void;
  /** Replaces the token (MFA enabled, password changed: the server ends the old session). */
  replaceToken(token: string): Promise<void>;
  /** The company private key, in memory only; undefined until unlocked (or when MFA is still missing). */
  companyPrivateKey(): CryptoKey | undefined;
}

/**
 * `instanceof ApiError` that also holds across bundles: the session's client is the shell's copy of
 * this package, so a remote calling through it receives the shell's ApiError class, not its own.
 */
export const isApiError = (error: unknown): error is ApiError =>
  error instanceof ApiError ||
  (error instanceof Error && error.name === 'ApiError' && typeof (error as ApiError).status === 'number');

/** Spec §8: the per-field messages of a 400 answer (`errors`, by field path), or undefined for any other failure. */
export const fieldErrorsOf = (error: unknown): Readonly<Record<string, string[]>> | undefined =>
  isApiError(error) && error.status === 400
    ? (error.body as { errors?: Record<string, string[]> } | undefined)?.errors
    : undefined;
