import QRCode from 'qrcode';
import { randomUUID } from 'node:crypto';
import { generateSecret, generateURI } from 'otplib';
import type {
  KdfName,
  LinkPasswordRequest,
  MfaSetupResponse,
  ProfileUpdateRequest,
  ProfileUpdateResponse,
  UserProfile,
} from '@whistle/contracts';
import { AuthenticationError, InputError, type Transaction } from '@whistle/service-kit';
import type { StaffPrincipal } from '@whistle/tokens';
import { userRepository, type UserRow } from '../../data-access/user.repository';
import { oneTimeSecretRepository } from '../../data-access/one-time-secret.repository';
import { mfaRepository } from '../../data-access/mfa.repository';
import { putPersonKeys } from '../keys/person-keys';
import { hashPassword } from './password-hash';
import { isCurrentPassword, resealPasswordCopy, signedInUser } from './password-proof';
import { secretLifetimes } from './abuse-limits';
import { accountMails } from './account-mails';
import { sendInBackground, type AccountDependencies } from './account-dependencies';
import { hashOfSecret, newOneTimeSecret } from './one-time-secret';
import { passwordLink } from './password-links';
import { acceptTotp, mfaSecretContext } from './sign-in-steps';
import { announceSessionsRevoked, revokeStaffToken } from './token-revocations';
import { announceUserUpdated } from './user-events';

export function profileView(user: UserRow): UserProfile {
  return {
    uuid: user.id,
    email: user.email,
    full_name: user.full_name,
    roles: user.roles,
    mfa_auth_factor_id: user.mfa_factor_id,
  };
}

export async function ownProfile(deps: AccountDependencies, principal: StaffPrincipal): Promise<UserProfile> {
  return profileView(await signedInUser(deps, principal));
}

/** PUT /api/account/profile with a staff token: the full name, or the password given the current one (spec §6: e-mail is read-only). */
export async function updateProfile(
  deps: AccountDependencies,
  principal: StaffPrincipal,
  input: ProfileUpdateRequest,
): Promise<ProfileUpdateResponse> {
  const user = await signedInUser(deps, principal);
  if ('full_name' in input) {
    await deps.unitOfWork(async (tx) => {
      await userRepository.updateFullName(tx, user.company_id, user.id, input.full_name);
      await announceUserUpdated(tx, principal, user.company_id, user.id);
    });
    return profileView({ ...user, full_name: input.full_name });
  }
  if (!(await isCurrentPassword(user, input.current_password)))
    throw new InputError('Bad Request', { current_password: ['The current password is wrong'] });
  await deps.unitOfWork(async (tx) => {
    await resealPasswordCopy(tx, user, input.sealed_private_keys);
    await setPassword(tx, user.company_id, user.id, {
      secret: input.password,
      kdfSalt: input.kdf_salt,
      kdf: input.kdf,
    });
  });
  // Every session issued before the change is over, this one included; the caller continues with a new token.
  const { token } = await deps.issuer.issue({
    userId: user.id,
    companyId: user.company_id,
    roles: user.roles,
    mfa: principal.mfa,
    mfaEnrollmentRequired: principal.mfaEnrollmentRequired,
    authTime: Math.floor(principal.authenticatedAt.getTime() / 1000),
  });
  return { ...profileView(user), token };
}

async function setPassword(
  tx: Transaction,
  companyId: string,
  userId: string,
  password: { secret: string; kdfSalt: string; kdf: KdfName },
): Promise<void> {
  const hash = await hashPassword(password.secret);
  const changedAt = new Date();
  await userRepository.setPassword(
    tx,
    companyId,
    userId,
    { hash, kdfSalt: password.kdfSalt, kdf: password.kdf },
    changedAt,
  );
  await oneTimeSecretRepository.retire(tx, userId, ['password_reset', 'invitation', 'mfa_challenge', 'sso_code']);
  await announceSessionsRevoked(tx, {
    companyId,
    userId,
    notBefore: changedAt,
    reason: 'password_changed',
    actorId: userId,
  });
}

/**
 * PUT /api/account/profile with a reset or invitation link's token as Bearer: sets the password once, with the key
 * pair the browser made for it. A reset replaces the person's keys (the old ones stay sealed under a password
 * nobody remembers): what they could open must be granted again (recovery kit, another admin), so a reset by
 * e-mail alone never opens a report.
 */
export async function setPasswordWithLink(
  deps: AccountDependencies,
  linkToken: string,
  input: LinkPasswordRequest,
): Promise<void> {
  const secretHash = hashOfSecret(linkToken);
  const link =
    (await oneTimeSecretRepository.consume(deps.db, secretHash, 'password_reset')) ??
    (await oneTimeSecretRepository.consume(deps.db, secretHash, 'invitation'));
  if (!link) throw new AuthenticationError('Invalid or expired link');
  await deps.unitOfWork(async (tx) => {
    await setPassword(tx, link.company_id, link.user_id, {
      secret: input.password,
      kdfSalt: input.kdf_salt,
      kdf: input.kdf,
    });
    await putPersonKeys(tx, { companyId: link.company_id, userId: link.user_id }, input.keys);
  });
}

/**
 * PUT /api/account/profile/password/reset, the e-mail as the Bearer "temporary token" (spec §7): runs after
 * the answer, so neither the answer nor its timing says whether the address exists.
 */
export async function requestPasswordReset(deps: AccountDependencies, email: string): Promise<void> {
  const user = await userRepository.byEmail(deps.db, email);
  if (!user) return;
  const link = newOneTimeSecret();
  await deps.db.transaction(async (tx) => {
    await oneTimeSecretRepository.retire(tx, user.id, ['password_reset']);
    await oneTimeSecretRepository.insert(tx, {
      hash: link.hash,
      purpose: 'password_reset',
      userId: user.id,
      companyId: user.company_id,
      ttlMs: secretLifetimes.password_reset,
    });
  });
  sendInBackground(
    deps,
    accountMails.passwordReset(user.email, passwordLink(deps.publicUrl, link.secret), user.language),
    'password reset',
  );
}

/**
 * POST /api/account/company/profile/mfa without a code: a new pending TOTP secret and its QR code.
 * The enabled factor keeps working until a code from the new one is confirmed.
 */
export async function startMfaSetup(deps: AccountDependencies, principal: StaffPrincipal): Promise<MfaSetupResponse> {
  const user = await signedInUser(deps, principal);
  const secret = generateSecret();
  await mfaRepository.setPendingSecret(deps.db, user.id, deps.kek.wrap(secret, mfaSecretContext(user.id)));
  const uri = generateURI({ issuer: 'Whistle', label: user.email, secret });
  return { qr_code: await QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, width: 256 }), secret };
}

/** The same call with `challenge_code`: enables the pending factor, retires the old one, and answers a token with `mfa: true`. */
export async function confirmMfaSetup(
  deps: AccountDependencies,
  principal: StaffPrincipal,
  code: string,
): Promise<{ token: string }> {
  const user = await signedInUser(deps, principal);
  const timeStep = await acceptTotp(deps.db, deps, user, code, 'pending');
  if (timeStep === undefined || !(await mfaRepository.enablePending(deps.db, user.id, randomUUID(), timeStep))) {
    throw new InputError('Bad Request', { challenge_code: ['Invalid code'] });
  }
  await deps.unitOfWork((tx) =>
    tx.addEvent({
      name: 'user.mfa_enabled',
      company_id: user.company_id,
      payload: { user_id: user.id },
      actor: { type: 'STAFF', user_id: user.id },
    }),
  );
  // The token that set the factor up was not MFA-complete; it is replaced by one that is.
  await deps.unitOfWork((tx) => revokeStaffToken(tx, principal));
  const { token } = await deps.issuer.issue({
    userId: user.id,
    companyId: user.company_id,
    roles: user.roles,
    mfa: true,
    mfaEnrollmentRequired: false,
    authTime: Math.floor(Date.now() / 1000),
  });
  return { token };
}
