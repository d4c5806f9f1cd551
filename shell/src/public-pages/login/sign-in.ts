import { ApiError } from '@whistle/api-client';
import type { LoginResponse } from '@whistle/contracts';
import { INCIDENTS_PATH } from '../../company-app/access';
import { staffSession } from '../../session/staff-session';
import { writeToken } from '../../session/token-storage';

export const MFA_PAGE = '/company/login/mfa';
export const MFA_SETUP_PAGE = '/company/settings/account/mfa';

/** The `next` query value when it is a path of this site (never another origin: no open redirect). */
export function safeNextPath(next: string | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return INCIDENTS_PATH;
  return next;
}

/** True when the token says the company requires MFA and the user must set it up first. */
function mustEnrolMfa(token: string): boolean {
  try {
    const payload = JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))) as {
      mfa_enrollment_required?: boolean;
    };
    return payload.mfa_enrollment_required === true;
  } catch {
    return false;
  }
}

/**
 * Spec §4: a token is stored and the user goes to `next` (or incidents); an MFA challenge id
 * becomes the session token and the MFA screen asks for the code. Answers the path to go to. `unlockKey`: what the
 * password sign-in derived, which opens the person's keys (SSO users unlock them after, with a passkey or passphrase).
 */
export async function completeSignIn(answer: LoginResponse, next: string, unlockKey?: CryptoKey): Promise<string> {
  if ('mfa_required' in answer) {
    // Kept (in this page, and in IndexedDB for a reload) until the MFA code completes the session: then the keys open
    // without asking again.
    await staffSession.keyring.setPendingUnlockKey(unlockKey);
    writeToken(answer.challenge_id);
    return `${MFA_PAGE}?next=${encodeURIComponent(next)}`;
  }
  await staffSession.signIn(answer.token, unlockKey);
  return mustEnrolMfa(answer.token) ? MFA_SETUP_PAGE : next;
}

/** The 400 of a password from before after the migration window: the page points to the reset. */
export const isLegacyPasswordEnded = (error: unknown) =>
  error instanceof ApiError &&
  error.status === 400 &&
  (error.body as { message?: string } | undefined)?.message ===
    'Sign-in with a password from before has ended: reset your password by e-mail';
