import type { PasswordKdfUpgradeRequest } from '@whistle/contracts';
import { ConflictError, NotAllowedError } from '@whistle/service-kit';
import type { StaffPrincipal } from '@whistle/tokens';
import { userRepository } from '../../data-access/user.repository';
import type { AccountDependencies } from './account-dependencies';
import { hashPassword } from './password-hash';
import { isCurrentPassword, resealPasswordCopy, signedInUser } from './password-proof';

export const alreadyUpgraded = 'The password is already derived with this key derivation';
export const wrongProof = 'The current password is wrong';

/**
 * PUT /api/account/profile/password/kdf: after a sign-in whose salt named an older kdf, the browser derived the same
 * password again with the current one. The old derivation's secret proves the password (checked as sign-in and
 * password change check it); hash, kdf, salt and the keys' password copy change in one transaction. No session ends
 * and no link is retired: the password did not change. Only from the older kdf, so a replayed body changes nothing.
 */
export async function upgradePasswordKdf(
  deps: AccountDependencies,
  principal: StaffPrincipal,
  input: PasswordKdfUpgradeRequest,
): Promise<void> {
  const user = await signedInUser(deps, principal);
  const fromKdf = user.kdf;
  if (fromKdf === null || fromKdf === input.kdf) throw new ConflictError(alreadyUpgraded);
  if (!(await isCurrentPassword(user, input.current_password))) throw new NotAllowedError(wrongProof);
  const hash = await hashPassword(input.password);
  await deps.unitOfWork(async (tx) => {
    const upgraded = await userRepository.upgradePasswordKdf(tx, user.company_id, user.id, {
      fromKdf,
      kdf: input.kdf,
      hash,
      kdfSalt: input.kdf_salt,
    });
    // Another tab upgraded first (its salt is the one the account has now): this one changes nothing.
    if (!upgraded) throw new ConflictError(alreadyUpgraded);
    await resealPasswordCopy(tx, user, input.sealed_private_keys);
    await tx.addEvent({
      name: 'user.password_kdf_upgraded',
      company_id: user.company_id,
      payload: { user_id: user.id, kdf: input.kdf },
      actor: { type: 'STAFF', user_id: user.id },
    });
  });
}
