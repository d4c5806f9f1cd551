import { OUTDATED_CLIENT_MESSAGE, type LoginRequest, type LoginResponse, type SaltResponse } from '@whistle/contracts';
import { isAuthSecret } from '@whistle/crypto';
import { AuthenticationError, InputError, NotAllowedError } from '@whistle/service-kit';
import { NEW_PASSWORD_KDF, userRepository, type UserRow } from '../../data-access/user.repository';
import { oneTimeSecretRepository } from '../../data-access/one-time-secret.repository';
import { dummyPasswordHash, hashPassword, verifyPasswordHash } from './password-hash';
import { ssoRequiredFor } from '../sso/sso-policy';
import { abuseLimits } from './abuse-limits';
import { accountMails } from './account-mails';
import { sendInBackground, type AccountDependencies } from './account-dependencies';
import { hashOfSecret } from './one-time-secret';
import { fakeKdfSalt } from './fake-kdf-salt';
import { acceptTotp, continueSignIn, recordSignIn } from './sign-in-steps';

export const invalidCredentials = 'Invalid email or password';
/** The 403 of a password sign-in by staff whose company requires its IdP (the login page points to SSO). */
export const ssoRequired = 'Single sign-on required';

/** The answer to a page that still sends the password itself where the account expects its authentication secret. */
const outdatedClient = () => new InputError(OUTDATED_CLIENT_MESSAGE, { password: [OUTDATED_CLIENT_MESSAGE] });
/** A password from before, after the migration window closed (LEGACY_PASSWORD_SIGN_IN_UNTIL). */
export const legacyPasswordEnded = 'Sign-in with a password from before has ended: reset your password by e-mail';

/** Whether an account still signs in with its password from before (not yet derived in the browser). */
const isLegacy = (user: UserRow) => user.password_hash !== null && user.kdf_salt === null;
const legacyWindowOpen = (deps: AccountDependencies) =>
  deps.legacyPasswordSignInUntil === undefined || Date.now() < deps.legacyPasswordSignInUntil.getTime();

/**
 * POST /api/account/token/salt: the salt to derive the authentication secret with. An address without an account
 * (or without a password) gets a salt of its own, stable (an HMAC under a key derived from the KEK), so neither
 * the answer nor its repetition tells which accounts exist: it names the kdf a new account would have. Only an
 * account from before says `legacy`.
 */
export async function passwordSalt(deps: AccountDependencies, username: string): Promise<SaltResponse> {
  const user = await userRepository.byEmail(deps.db, username);
  if (user?.kdf && user.kdf_salt) return { kdf: user.kdf, salt: user.kdf_salt };
  if (user && isLegacy(user) && legacyWindowOpen(deps)) return { kdf: 'legacy' };
  return { kdf: NEW_PASSWORD_KDF, salt: fakeKdfSalt(deps.kek, username) };
}

/**
 * POST /api/account/token: the authentication secret (or, once, a password from before with its upgrade), then
 * either a token or an MFA challenge (spec §4).
 */
export async function login(deps: AccountDependencies, input: LoginRequest): Promise<LoginResponse> {
  const { username, password, upgrade } = input;
  const user = await userRepository.byEmail(deps.db, username);
  // Only an account from before still accepts the password itself: anything else must be a derived secret.
  const legacy = user !== undefined && isLegacy(user);
  if (!legacy && !isAuthSecret(password)) throw outdatedClient();
  if (legacy && !legacyWindowOpen(deps)) throw new InputError(legacyPasswordEnded, { password: [legacyPasswordEnded] });
  if (!user || !user.password_hash) {
    await verifyPasswordHash(await dummyPasswordHash(), password);
    throw new AuthenticationError(invalidCredentials);
  }
  if (!(await verifyPasswordHash(user.password_hash, password))) {
    const failuresInARow = await userRepository.recordFailedLogin(deps.db, user.id);
    if (failuresInARow === abuseLimits.noticeAfterFailures)
      sendInBackground(deps, accountMails.failedSignIns(user.email, failuresInARow, user.language), 'failed sign-ins');
    await recordSignIn(deps, user, { failed: 'password' });
    throw new AuthenticationError(invalidCredentials);
  }
  await userRepository.clearFailedLogins(deps.db, user.id);
  // The password from before is right: from now on the account knows only what the browser derives from it.
  if (legacy && upgrade)
    await userRepository.upgradePassword(deps.db, user.id, {
      hash: await hashPassword(upgrade.auth_secret),
      kdfSalt: upgrade.kdf_salt,
      kdf: upgrade.kdf,
    });
  // Checked only after the right password: a guess learns nothing of the company's policy.
  if (await ssoRequiredFor(deps, user)) {
    deps.logger.info({ company_id: user.company_id }, 'password sign-in refused: the company requires single sign-on');
    throw new NotAllowedError(ssoRequired);
  }
  return continueSignIn(deps, user, 'password');
}

/** Whose live challenge this is, if any: the per-account MFA limit counts by it. */
export async function challengeOwner(
  deps: Pick<AccountDependencies, 'db'>,
  challengeId: string,
): Promise<string | undefined> {
  return (await oneTimeSecretRepository.live(deps.db, hashOfSecret(challengeId), 'mfa_challenge'))?.user_id;
}

/** POST /api/account/token/mfa: the challenge id (Bearer) and a code → a token with `mfa: true`. */
export async function completeMfa(
  deps: AccountDependencies,
  challengeId: string,
  code: string,
): Promise<{ token: string }> {
  const challengeHash = hashOfSecret(challengeId);
  const challenge = await oneTimeSecretRepository.live(deps.db, challengeHash, 'mfa_challenge');
  if (!challenge) throw new AuthenticationError('Invalid or expired MFA challenge');
  const user = await userRepository.byId(deps.db, challenge.company_id, challenge.user_id);
  const accepted = user ? await acceptTotp(deps.db, deps, user, code, 'enabled') : undefined;
  if (!user || accepted === undefined) {
    await oneTimeSecretRepository.failChallenge(deps.db, challengeHash, abuseLimits.mfaAttemptsPerChallenge);
    if (user) await recordSignIn(deps, user, { failed: 'mfa' });
    throw new AuthenticationError('Invalid code');
  }
  // Two right answers racing on one challenge: only one gets a token.
  if (!(await oneTimeSecretRepository.consume(deps.db, challengeHash, 'mfa_challenge'))) {
    throw new AuthenticationError('Invalid or expired MFA challenge');
  }
  const { token } = await deps.issuer.issue({
    userId: user.id,
    companyId: user.company_id,
    roles: user.roles,
    mfa: true,
    mfaEnrollmentRequired: false,
    authTime: Math.floor(Date.now() / 1000),
  });
  await recordSignIn(deps, user, { method: 'mfa' });
  return { token };
}
