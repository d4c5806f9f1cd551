import { randomUUID } from 'node:crypto';
import type { UserProfile, UserProfileCreateRequest } from '@whistle/contracts';
import { InputError, NotFoundError } from '@whistle/service-kit';
import type { StaffPrincipal } from '@whistle/tokens';
import { userRepository } from '../../data-access/user.repository';
import { oneTimeSecretRepository } from '../../data-access/one-time-secret.repository';
import { secretLifetimes } from './abuse-limits';
import { accountMails } from './account-mails';
import { sendInBackground, type AccountDependencies } from './account-dependencies';
import { newOneTimeSecret } from './one-time-secret';
import { passwordLink } from './profile.use-case';

/** POST /api/account/company/user_profile/ (ADMIN): a user without password, invited by e-mail to choose one. */
export async function inviteUser(
  deps: AccountDependencies,
  principal: StaffPrincipal,
  input: UserProfileCreateRequest,
): Promise<UserProfile> {
  const email = input.email.toLowerCase();
  const userId = randomUUID();
  const link = newOneTimeSecret();
  // Worded without saying why: an admin of one company learns nothing about another's accounts.
  const refused = () => new InputError('Bad Request', { email: ['This email address cannot be invited'] });
  if (await userRepository.emailTaken(deps.db, email)) throw refused();
  try {
    await deps.unitOfWork(async (tx) => {
      await userRepository.insert(tx, {
        id: userId,
        companyId: principal.companyId,
        email,
        fullName: input.full_name,
        passwordHash: null,
        roles: input.roles,
      });
      await oneTimeSecretRepository.insert(tx, {
        hash: link.hash,
        purpose: 'invitation',
        userId,
        companyId: principal.companyId,
        ttlMs: secretLifetimes.invitation,
      });
      await tx.addEvent({
        name: 'user.created',
        company_id: principal.companyId,
        payload: { user_id: userId, email, full_name: input.full_name, roles: input.roles },
        actor: { type: 'STAFF', user_id: principal.userId },
      });
    });
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw refused();
    throw error;
  }
  sendInBackground(
    deps,
    accountMails.invitation(email, input.full_name, passwordLink(deps.publicUrl, link.secret)),
    'invitation',
  );
  return { uuid: userId, email, full_name: input.full_name, roles: input.roles, mfa_auth_factor_id: null };
}

/** DELETE /api/account/company/user_profile/ (ADMIN): only a user of the caller's company; never oneself. */
export async function deleteUser(deps: AccountDependencies, principal: StaffPrincipal, userId: string): Promise<void> {
  if (userId === principal.userId)
    throw new InputError('Bad Request', { uuid: ['You cannot delete your own account'] });
  await deps.unitOfWork(async (tx) => {
    const deleted = await userRepository.delete(tx, principal.companyId, userId);
    if (!deleted) throw new NotFoundError('User not found');
    await tx.addEvent({
      name: 'user.deleted',
      company_id: principal.companyId,
      payload: { user_id: userId, deleted_at: new Date().toISOString() },
      actor: { type: 'STAFF', user_id: principal.userId },
    });
  });
}
