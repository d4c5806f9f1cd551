/** Every abuse threshold of staff sign-in in one table, so a review sees them together. */
export const abuseLimits = {
  /**
   * Wrong passwords in a row after which the owner is told by e-mail. Nothing is locked: an account that anyone
   * could lock by typing its address would be a way to keep its owner out.
   */
  noticeAfterFailures: 5,
  /** Wrong codes one MFA challenge takes before it dies and the user signs in again. */
  mfaAttemptsPerChallenge: 5,
  /** Failed logins / MFA codes / reset requests per window, per account and per client address. */
  windowMs: 15 * 60 * 1000,
  /** Wrong passwords for one account from one client: that client is refused for that account, the owner is not. */
  loginFailuresPerAccountAndClient: 5,
  /**
   * Wrong passwords for one account from every client together, past which every sign-in of that account waits
   * `loginSlowDownStepMs` more per failure (at most `loginSlowDownMaxMs`) before it is checked: distributed guessing
   * slows to a crawl, and the owner, whom any stranger can push past this by typing their address, still gets in.
   * Never a 429: an account lock would be a way to keep its owner out.
   */
  loginFailuresPerAccount: 20,
  loginSlowDownStepMs: 500,
  loginSlowDownMaxMs: 10_000,
  loginFailuresPerClient: 50,
  mfaFailuresPerClient: 20,
  /** Wrong MFA codes per account across its challenges (a new challenge needs the password again). */
  mfaFailuresPerAccount: 10,
  resetRequestsPerAccount: 3,
  resetRequestsPerClient: 10,
  ssoRequestsPerClient: 30,
  /**
   * Salt lookups per client: each sign-in asks once, and a whole office behind one address signs in at nine. The
   * answer tells nothing of which accounts exist (unknown addresses get stable salts of their own), so this only
   * keeps one client from making auth compute HMACs without end.
   */
  saltRequestsPerClient: 1000,
  /** Invitations (and resent invitations) per hour, per admin and per company: each one mails an address the admin chose. */
  invitationWindowMs: 60 * 60 * 1000,
  invitationsPerAdmin: 20,
  invitationsPerCompany: 50,
} as const;

/** How long one-time secrets live. */
export const secretLifetimes = {
  mfa_challenge: 5 * 60 * 1000,
  password_reset: 60 * 60 * 1000,
  invitation: 7 * 24 * 60 * 60 * 1000,
  sso_code: 2 * 60 * 1000,
  /** An onboarding waits a day for its admin to confirm the address; then the registration is deleted. */
  company_confirmation: 24 * 60 * 60 * 1000,
} as const;
