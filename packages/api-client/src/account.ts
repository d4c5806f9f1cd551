import type {
  IncidentKeyMaterial,
  LinkPasswordRequest,
  LoginRequest,
  LoginResponse,
  ProfileUpdateRequest,
  SaltResponse,
  MailPreferences,
  MfaSetupResponse,
  OwnCompany,
  ProfileUpdateResponse,
  Role,
  TokenResponse,
  UserProfile,
} from '@whistle/contracts';
import { ApiError } from './api-error';
import { withToken, type ApiClient } from './client';

/**
 * POST /api/account/token: a token, or an MFA challenge whose id becomes the session token for the MFA screen.
 * `password` is the authentication secret derived in the browser (or, once, a password from before with `upgrade`).
 */
export const login = (api: ApiClient, body: LoginRequest) =>
  api.request<LoginResponse>('POST', '/api/account/token', { body });

/** POST /api/account/token/salt: how to derive the authentication secret for this address. */
export const getPasswordSalt = (api: ApiClient, username: string) =>
  api.request<SaltResponse>('POST', '/api/account/token/salt', { body: { username } });

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

/**
 * A password change (both as authentication secrets, the keys' password copy sealed again) ends the other sessions;
 * the answer's `token` replaces the caller's.
 */
export const changePassword = (api: ApiClient, body: Extract<ProfileUpdateRequest, { password: string }>) =>
  api.request<ProfileUpdateResponse>('PUT', '/api/account/profile', { body });

/** PUT /api/account/profile/password/reset: the e-mail travels as the Bearer (spec §7 "temporary token"). */
export const requestPasswordReset = (api: ApiClient, email: string) =>
  withToken(api, email).request<void>('PUT', '/api/account/profile/password/reset');

/** PUT /api/account/profile with the token of a reset or invitation link as Bearer: the new password and keys. */
export const setPasswordWithLink = (api: ApiClient, linkToken: string, body: LinkPasswordRequest) =>
  withToken(api, linkToken).request<void>('PUT', '/api/account/profile', { body });

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
  /** The signed-in person's keys on this page: what opens cases and grants them on. */
  readonly keyring: StaffKeyring;
}

/**
 * An opened case: encrypt to `publicKey`, decrypt with `privateKey`, notes under `notesKey` (a case made before team
 * secrets has none) — the IncidentHandle of @whistle/crypto.
 */
export interface CaseHandle {
  readonly publicKey: string;
  readonly privateKey: CryptoKey;
  readonly notesKey?: CryptoKey;
}

/**
 * `unlocked`: the person's keys are open on this page. `locked`: they must unlock them (password, passkey or
 * unlock passphrase). `absent`: they have none yet (first SSO sign-in) and must set them up. `unavailable`: not
 * before MFA is complete.
 */
export type KeyringState = 'unlocked' | 'locked' | 'absent' | 'unavailable';

/**
 * The person's keys, held by the shell (non-extractable, never in a remote's reach as bytes). Cases open with the
 * company key an admin granted to the person; it is never sent anywhere.
 */
/** What `pinCaseKey` found: the key pinned (just now, or the one pinned before), or another key than the pinned. */
export type CaseKeyTrust = 'pinned' | 'changed';

export interface StaffKeyring {
  state(): KeyringState;
  subscribe(listener: (state: KeyringState) => void): () => void;
  /**
   * Opens a case with the person's own grant (`keys.my_grant`) or the company key; rejects with a `NoCaseAccessError`
   * (name) when nothing the person holds opens it, and with a DecryptionError when what the server handed does not.
   */
  openCase(keys: IncidentKeyMaterial): Promise<CaseHandle>;
  /**
   * Holder of the company key, assigning: the case's passphrase, checked against the case, wrapped to each recipient
   * (keys checked against the fingerprint shown), to send with the assignment (`grants` of the case update).
   */
  grantCase(keys: IncidentKeyMaterial, recipients: readonly KeyRecipient[]): Promise<CaseGrantInput[]>;
  /**
   * The company private key as a non-extractable CryptoKey, to hand to a worker (export) that opens many cases
   * (and, during a rotation, the previous one); undefined while the person does not hold it.
   */
  workerMaterial(): KeyringWorkerMaterial | undefined;
  /**
   * The person's own ECDH private key (non-extractable) and public key, to hand to a worker that opens the cases the
   * person holds a per-case grant of (`keys.my_grant`); undefined while their keys are locked.
   */
  grantMaterial(): KeyringGrantMaterial | undefined;
  /**
   * Trust on first use of a case's incident public key (docs/security.md, "Pinned case keys"), once `openCase`
   * opened the case with it: the first time this person opens the case in this browser the key is pinned;
   * 'changed' when it is not the key pinned. Rejects while their keys are locked.
   */
  pinCaseKey(incidentUuid: string, incidentPublicKey: string): Promise<CaseKeyTrust>;
  /** After the person acknowledged a changed key knowingly: that key is the case's pin from now on. */
  repinCaseKey(incidentUuid: string, incidentPublicKey: string): Promise<void>;
  /**
   * Signs what goes to a case's discloser (a message's ciphertext) with the person's signing key
   * (docs/security.md, "Signed staff messages"); undefined while their keys are locked.
   */
  signForDiscloser(input: {
    incidentPublicKey: string;
    kind: 'message' | 'file';
    ciphertexts: string[];
  }): Promise<{ nonce: string; signature: string } | undefined>;

  /**
   * Admin: signs with the person's own signing key that a team member's key belongs to the case team of `companyId`
   * (docs/security.md, "Signed staff messages") and posts it. The member's keys are checked against the fingerprint
   * the admin compared, as for an approval; `endorserKeyId` is the id the team list gives the person's own key.
   */
  endorseTeamKey(input: {
    companyId: string;
    endorserKeyId: string;
    member: KeyRecipient & { keyId: string; role: Role };
  }): Promise<void>;

  /** The person's own public keys and fingerprint once unlocked (what the team and approval dialogs compare). */
  person(): { publicKey: string; signingPublicKey: string; fingerprint: string } | undefined;
  /** Unlocks with the password (a reload in a new browser session, or after the lock). */
  unlockWithPassword(password: string): Promise<void>;
  /** Unlocks with one of the person's passkeys (WebAuthn PRF); rejects when the browser has no PRF. */
  unlockWithPasskey(): Promise<void>;
  unlockWithPassphrase(passphrase: string): Promise<void>;
  /** `absent` only: makes the person's keys, sealed under a new passkey or an unlock passphrase (SSO users). */
  setUpWithPasskey(label: string): Promise<void>;
  setUpWithPassphrase(passphrase: string): Promise<void>;
  /** Unlocked only: one more way to unlock (registers the passkey, or sets the unlock passphrase) and saves it. */
  addPasskey(label: string): Promise<void>;
  addPassphrase(passphrase: string): Promise<void>;
  /**
   * The account page's password change: both passwords derived here (neither travels), the keys' password copy
   * sealed again under the new one. Answers the server's answer, whose `token` replaces the session's.
   */
  changePassword(currentPassword: string, newPassword: string): Promise<ProfileUpdateResponse>;
  /** Forgets the unlocked keys on this page and in this browser (sign-out, "lock now"). */
  lock(): Promise<void>;

  /** What the person holds of the company key: see CompanyKeyStatus. Reloads from the server. */
  companyKeyStatus(): Promise<CompanyKeyStatus>;
  /**
   * Admin holding the key: the company key wrapped to a team member, after the page showed the recipient's
   * fingerprint and the admin confirmed it matches. The keyring computes the fingerprint of the keys it wraps to and
   * refuses when it is not the one shown (a server handing other keys than those it names). Posts the grant
   * (`requestId` when it answers a request).
   */
  approveCompanyKey(recipient: KeyRecipient & { requestId?: string }): Promise<void>;
  /** Admin without the key: opens the recovery kit's copy with the typed kit and grants the key to themselves. */
  restoreWithRecoveryKit(recoveryKitText: string): Promise<void>;
  /** Admin holding the key: a new recovery kit (its text is shown once, to print and store); the old kit stops working. */
  rotateRecoveryKit(): Promise<{ text: string; fingerprint: string; createdAt: string }>;
  /**
   * Admin of a company from before: moves the company key to the admin and a new recovery kit (shown once), after
   * which the server deletes the old way.
   */
  migrateCompanyKey(): Promise<{ text: string; fingerprint: string; createdAt: string }>;
  /**
   * Admin holding the key: a new company key pair made here, granted to `holders` (everyone who holds the current
   * key, their fingerprints shown; each checked against their keys as for an approval) and sealed for a new recovery
   * kit (shown once). New reports use it at once; the cases are re-wrapped afterwards, with `workerMaterial()`'s
   * keys (docs/security.md, "Rotation"). The keyring then holds both keys until the rotation completes.
   */
  startCompanyKeyRotation(
    holders: KeyRecipient[],
  ): Promise<{ keyVersion: number; recoveryKit: { text: string; fingerprint: string; createdAt: string } }>;
}

/** One per-case grant as the case update sends it. */
export interface CaseGrantInput {
  user_id: string;
  fingerprint: string;
  wrapped_passphrase: string;
}

/** A person the company key is wrapped to, with the fingerprint the page showed (and the admin compared). */
export interface KeyRecipient {
  userId: string;
  publicKey: string;
  signingPublicKey: string;
  fingerprint: string;
}

/**
 * `held`: the person holds the current company key. `missing`: their keys do not open it (new team member, reset by
 * e-mail): ask an admin (`accessRequest` once asked), or, admins, restore it with the recovery kit. `legacy`: the
 * company's key is still kept the old way: an admin moves it (migration), then grants it to the team.
 */
export interface CompanyKeyStatus {
  state: 'held' | 'missing' | 'legacy';
  keyVersion: number;
  publicKey: string;
  fingerprint: string;
  accessRequest: { id: string; expiresAt: string } | null;
  /** While a rotation re-wraps the cases: the key being replaced (held too, so cases open under either). */
  rotation: { previousKeyVersion: number; startedAt: string; previousHeld: boolean } | null;
}

export interface KeyringWorkerMaterial {
  companyPrivateKey: CryptoKey;
  /** During a rotation: the previous company key, which still wraps the cases not yet re-wrapped. */
  previousCompanyPrivateKey?: CryptoKey;
}

/** What opens one's own per-case grants (openIncidentWithGrant's `person`). */
export interface KeyringGrantMaterial {
  decryptionKey: CryptoKey;
  publicKeys: { public_key: string; signing_public_key: string };
}

/** What `openCase` rejects with when the person holds nothing that opens the case. */
export class NoCaseAccessError extends Error {
  override name = 'NoCaseAccessError';
  constructor() {
    super('You have no key to this case yet');
  }
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
