import { verify as verifyTotp } from 'otplib';
import type { LoginResponse } from '@whistle/contracts';
import type { Queryable } from '@whistle/service-kit';
import { userRepository, type UserRow } from '../../data-access/user.repository';
import { oneTimeSecretRepository } from '../../data-access/one-time-secret.repository';
import { mfaRepository } from '../../data-access/mfa.repository';
import { secretLifetimes } from './abuse-limits';
import type { AccountDependencies } from './account-dependencies';
import { newOneTimeSecret } from './one-time-secret';

// What every way of signing in shares (password, SSO, the second factor, the factor's set-up).

/** For the audit trail: a sign-in of a known account, refused or completed (ids only, never the address). */
export async function recordSignIn(
  deps: AccountDependencies,
  user: Pick<UserRow, 'id' | 'company_id'>,
  outcome: { failed: 'password' | 'mfa' } | { method: 'password' | 'sso' | 'mfa' },
): Promise<void> {
  await deps.unitOfWork(async (tx) => {
    if (!('failed' in outcome)) await userRepository.recordSignIn(tx, user.id);
    await tx.addEvent(
      'failed' in outcome
        ? {
            name: 'user.sign_in_failed',
            company_id: user.company_id,
            payload: { user_id: user.id, factor: outcome.failed },
            actor: { type: 'SYSTEM' },
          }
        : {
            name: 'user.signed_in',
            company_id: user.company_id,
            payload: { user_id: user.id, method: outcome.method },
            actor: { type: 'STAFF', user_id: user.id },
          },
    );
  });
}

/** After the first factor (password or SSO): a challenge when the user has MFA, else a token. */
export async function continueSignIn(
  deps: AccountDependencies,
  user: UserRow,
  firstFactor: 'password' | 'sso',
): Promise<LoginResponse> {
  if (user.mfa_secret) {
    const challenge = newOneTimeSecret();
    await oneTimeSecretRepository.insert(deps.db, {
      hash: challenge.hash,
      purpose: 'mfa_challenge',
      userId: user.id,
      companyId: user.company_id,
      ttlMs: secretLifetimes.mfa_challenge,
    });
    return { mfa_required: true, challenge_id: challenge.secret };
  }
  const { token } = await deps.issuer.issue({
    userId: user.id,
    companyId: user.company_id,
    roles: user.roles,
    mfa: false,
    mfaEnrollmentRequired: user.company_mfa_required,
    authTime: Math.floor(Date.now() / 1000),
  });
  await recordSignIn(deps, user, { method: firstFactor });
  return { token };
}

/**
 * Checks a 6-digit code against the user's enabled (or, for set-up, pending) TOTP secret. A code is
 * accepted once: its time step must be later than the last accepted one, recorded atomically.
 */
export async function acceptTotp(
  db: Queryable,
  deps: Pick<AccountDependencies, 'kek'>,
  user: UserRow,
  code: string,
  which: 'enabled' | 'pending',
): Promise<number | undefined> {
  const wrapped = which === 'enabled' ? user.mfa_secret : user.mfa_pending_secret;
  if (!wrapped) return undefined;
  const secret = deps.kek.unwrap(wrapped, mfaSecretContext(user.id));
  // The last accepted step belongs to the enabled secret; a pending one has never been used.
  const lastStep =
    which === 'pending' || user.mfa_last_time_step === null ? undefined : Number(user.mfa_last_time_step);
  const result = await verifyTotp({
    secret,
    token: code,
    epochTolerance: 30,
    ...(lastStep === undefined ? {} : { afterTimeStep: lastStep }),
  });
  // TOTP results carry the matched time step (HOTP ones, the other half of the union, do not).
  if (!result.valid || !('timeStep' in result)) return undefined;
  if (which === 'enabled' && !(await mfaRepository.advanceTimeStep(db, user.id, result.timeStep))) return undefined;
  return result.timeStep;
}

/** Associated data binding a wrapped TOTP secret to its user, so it cannot be moved to another row. */
export const mfaSecretContext = (userId: string) => `mfa:${userId}`;
