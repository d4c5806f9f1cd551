import { matchesPrefix } from '@whistle/contracts';
import type { Role } from '@whistle/contracts';

export const INCIDENTS_PATH = '/company/incidents';
export const ACCOUNT_SETTINGS_PATH = '/company/settings/account';
const SETTINGS_PATH = '/company/settings';

/**
 * Spec §4/§6: where a signed-in user must go instead of `pathname`, or undefined to stay.
 * Non-admins reach only incidents and account settings: admin-only settings send them to account
 * settings, anything else to incidents. The bare settings path opens account settings for everyone.
 */
export function accessRedirect(pathname: string, roles: readonly Role[]): string | undefined {
  if (pathname.replace(/\/+$/, '') === SETTINGS_PATH) return ACCOUNT_SETTINGS_PATH;
  if (roles.includes('ADMIN')) return undefined;
  if (matchesPrefix(pathname, INCIDENTS_PATH) || matchesPrefix(pathname, ACCOUNT_SETTINGS_PATH)) return undefined;
  return matchesPrefix(pathname, SETTINGS_PATH) ? ACCOUNT_SETTINGS_PATH : INCIDENTS_PATH;
}

/** The login page, coming back here afterwards. */
export const loginPathFor = (location: Pick<Location, 'pathname' | 'search'>) =>
  `/company/login?next=${encodeURIComponent(`${location.pathname}${location.search}`)}`;
