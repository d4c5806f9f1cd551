import { randomUUID } from 'node:crypto';
import {
  defaultInviteeLanguage,
  type StaffLanguage,
  type TeamMember,
  type UserProfile,
  type UserProfileCreateRequest,
  type UserRolesUpdateRequest,
} from '@whistle/contracts';
import { InputError, NotFoundError, type Queryable } from '@whistle/service-kit';
import type { StaffPrincipal } from '@whistle/tokens';
import { userRepository } from '../../data-access/user.repository';
import { oneTimeSecretRepository } from '../../data-access/one-time-secret.repository';
import { secretLifetimes } from './abuse-limits';
import { accountMails } from './account-mails';
import { sendInBackground, type AccountDependencies } from './account-dependencies';
import { newOneTimeSecret } from './one-time-secret';
import { invitationLink } from './password-links';
import { announceSessionsRevoked } from './token-revocations';
import { announceUserUpdated } from './user-events';
import { revokeCompanyKey } from '../keys/key-revocation';

async function inviteeLanguage(db: Queryable, principal: StaffPrincipal): Promise<StaffLanguage> {
  const languages = await userRepository.inviterLanguages(db, principal.companyId, principal.userId);
  return defaultInviteeLanguage(languages?.company_default, languages?.own);
}

/**
 * POST /api/account/company/user_profile/ (ADMIN): a user without password, invited by e-mail to choose one, in the
 * language the admin chose for them (kept as the account's mail language).
 */
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
  let language: StaffLanguage = 'en';
  try {
    await deps.unitOfWork(async (tx) => {
      language = input.language ?? (await inviteeLanguage(tx, principal));
      await userRepository.insert(tx, {
        id: userId,
        companyId: principal.companyId,
        email,
        fullName: input.full_name,
        password: null,
        roles: input.roles,
        language,
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
        version: 2,
        company_id: principal.companyId,
        payload: { user_id: userId, email, full_name: input.full_name, roles: input.roles, language },
        actor: { type: 'STAFF', user_id: principal.userId },
      });
    });
  } catch (error) {
    // An address is one account across all companies (user_profile_email_key), but this request runs behind the
    // tenant wall and sees only its own company's members: the unique index is the check, for every company, and
    // its violation gets the same answer whoever holds the address.
    if ((error as { code?: string }).code === '23505') throw refused();
    throw error;
  }
  sendInBackground(
    deps,
    accountMails.invitation(email, input.full_name, invitationLink(deps.publicUrl, link.secret), language),
    'invitation',
  );
  return { uuid: userId, email, full_name: input.full_name, roles: input.roles, mfa_auth_factor_id: null };
}

/** DELETE /api/account/company/user_profile/ (ADMIN): only a user of the caller's company; never oneself. */
export async function deleteUser(deps: AccountDependencies, principal: StaffPrincipal, userId: string): Promise<void> {
  if (userId === principal.userId)
    throw new InputError('Bad Request', { uuid: ['You cannot delete your own account'] });
  await deps.unitOfWork(async (tx) => {
    // Before the row goes (its keys and grants go with it): the trail says the key was taken away, and why.
    await revokeCompanyKey(tx, principal, userId, 'user_deleted');
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

/**
 * PUT /api/account/company/user_profile/ (ADMIN): a member's roles. The company always keeps an admin; the
 * member's tokens issued before the change are refused here from now on, as they carry the old roles.
 */
export async function changeRoles(
  deps: AccountDependencies,
  principal: StaffPrincipal,
  input: UserRolesUpdateRequest,
): Promise<TeamMember> {
  return deps.unitOfWork(async (tx) => {
    const member = await userRepository.byId(tx, principal.companyId, input.uuid);
    if (!member) throw new NotFoundError('User not found');
    const demotesAnAdmin = member.roles.includes('ADMIN') && !input.roles.includes('ADMIN');
    if (demotesAnAdmin && (await userRepository.countWithRole(tx, principal.companyId, 'ADMIN')) <= 1)
      throw new InputError('Bad Request', { roles: ['A company needs at least one admin'] });
    const changedAt = new Date();
    if (!(await userRepository.setRoles(tx, principal.companyId, input.uuid, input.roles, changedAt)))
      throw new NotFoundError('User not found');
    // The company key opens every case: only admins hold it, so it goes with the role, in the same transaction.
    if (demotesAnAdmin) await revokeCompanyKey(tx, principal, input.uuid, 'admin_role_removed');
    await announceUserUpdated(tx, principal, principal.companyId, input.uuid);
    await announceSessionsRevoked(tx, {
      companyId: principal.companyId,
      userId: input.uuid,
      notBefore: changedAt,
      reason: 'roles_changed',
      actorId: principal.userId,
    });
    const team = await userRepository.ofCompany(tx, principal.companyId);
    const row = team.find((candidate) => candidate.uuid === input.uuid)!;
    return { ...row, last_sign_in_at: row.last_sign_in_at?.toISOString() ?? null };
  });
}

/**
 * POST /api/account/company/user_profile/invitation (ADMIN): a new set-password link for a member who has not
 * chosen a password yet; earlier links stop working.
 */
export async function resendInvitation(
  deps: AccountDependencies,
  principal: StaffPrincipal,
  userId: string,
): Promise<void> {
  const member = await userRepository.byId(deps.db, principal.companyId, userId);
  if (!member) throw new NotFoundError('User not found');
  if (member.password_hash)
    throw new InputError('Bad Request', { uuid: ['This member has already chosen a password'] });
  const link = newOneTimeSecret();
  await deps.unitOfWork(async (tx) => {
    await oneTimeSecretRepository.retire(tx, userId, ['invitation']);
    await oneTimeSecretRepository.insert(tx, {
      hash: link.hash,
      purpose: 'invitation',
      userId,
      companyId: principal.companyId,
      ttlMs: secretLifetimes.invitation,
    });
  });
  sendInBackground(
    deps,
    accountMails.invitation(
      member.email,
      member.full_name,
      invitationLink(deps.publicUrl, link.secret),
      member.language,
    ),
    'invitation',
  );
}
