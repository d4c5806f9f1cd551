import type { Queryable } from '@whistle/service-kit';
import { ssoRepository } from '../../data-access/sso.repository';

/**
 * Whether this user must sign in through the company's IdP: SSO enabled and required, and not an
 * admin. Admins keep password sign-in (with their MFA) as the break-glass path for when the IdP is down
 * or its certificate was rotated without telling Whistle; their sign-ins stay in the audit trail.
 */
export async function ssoRequiredFor(
  deps: { db: Queryable },
  user: { company_id: string; roles: readonly string[] },
): Promise<boolean> {
  if (user.roles.includes('ADMIN')) return false;
  const settings = await ssoRepository.settings(deps.db, user.company_id);
  return settings?.enabled === true && settings.require_sso;
}
