import type { MailPreferences } from '@whistle/contracts';
import { AuthenticationError } from '@whistle/service-kit';
import type { StaffPrincipal } from '@whistle/tokens';
import { userRepository } from '../../data-access/user.repository';
import type { AccountDependencies } from './account-dependencies';
import { announceUserUpdated, mailPreferencesOf } from './user-events';

/** GET /api/account/profile/notifications: the caller's mail language and the kinds of mail they want. */
export async function ownMailPreferences(
  deps: AccountDependencies,
  principal: StaffPrincipal,
): Promise<MailPreferences> {
  const member = await mailPreferencesOf(deps.db, principal.companyId, principal.userId);
  if (!member) throw new AuthenticationError();
  return { language: member.language, notifications: member.notifications };
}

/** PUT /api/account/profile/notifications: kept, and announced so the notification service follows them. */
export async function setMailPreferences(
  deps: AccountDependencies,
  principal: StaffPrincipal,
  preferences: MailPreferences,
): Promise<MailPreferences> {
  return deps.unitOfWork(async (tx) => {
    await userRepository.setMailPreferences(tx, principal.companyId, principal.userId, preferences);
    const announced = await announceUserUpdated(tx, principal, principal.companyId, principal.userId);
    return { language: announced.language, notifications: announced.notifications };
  });
}
