import { Router, type Request, type RequestHandler } from 'express';
import {
  companyMfaRequestSchema,
  loginRequestSchema,
  mailPreferencesSchema,
  mfaChallengeRequestSchema,
  mfaSetupRequestSchema,
  passwordKdfUpgradeRequestSchema,
  profileUpdateRequestSchema,
  invitationResendRequestSchema,
  linkPasswordRequestSchema,
  saltRequestSchema,
  userProfileCreateRequestSchema,
  userProfileDeleteRequestSchema,
  userRolesUpdateRequestSchema,
} from '@whistle/contracts';
import { AuthenticationError, clientAddress, parseBody, rateLimit } from '@whistle/service-kit';
import { bearerToken, requireStaff, staffOf, type StaffTokenVerifier } from '@whistle/tokens';
import { z } from 'zod';
import { abuseLimits } from '../../domain/account/abuse-limits';
import type { AccountDependencies } from '../../domain/account/account-dependencies';
import { setCompanyMfaRequired } from '../../domain/account/company-security.use-case';
import { ownCompany } from '../../domain/account/own-company.use-case';
import { upgradePasswordKdf } from '../../domain/account/password-kdf.use-case';
import {
  confirmMfaSetup,
  ownProfile,
  requestPasswordReset,
  setPasswordWithLink,
  startMfaSetup,
  updateProfile,
} from '../../domain/account/profile.use-case';
import { refreshSession, revokeSession } from '../../domain/account/session.use-case';
import { ownMailPreferences, setMailPreferences } from '../../domain/account/mail-preferences.use-case';
import { challengeOwner, completeMfa, login, passwordSalt } from '../../domain/account/sign-in.use-case';
import { changeRoles, deleteUser, inviteUser, resendInvitation } from '../../domain/account/team.use-case';

const tooMany = 'Too many attempts, please try again later';
const tooManyInvitations = 'Too many invitations, please try again later';
const { windowMs } = abuseLimits;
const accountKey = (prefix: string, value: unknown) =>
  `${prefix}:${typeof value === 'string' ? value.trim().toLowerCase() : ''}`;
/** A JWT has three dot-separated parts; challenge ids and link tokens are single base64url strings. */
const isJwt = (token: string) => token.split('.').length === 3;
const resetEmail = z.string().trim().max(254).pipe(z.email('Invalid email address'));

/** Password sign-in, MFA, profile, password reset, team and company security: /api/account/token*, profile, user_profile. */
export function accountRoutes(deps: AccountDependencies, verifier: StaffTokenVerifier): Router {
  const router = Router();
  const staff = requireStaff(verifier);
  // Until the MFA the company requires is set up, a token reaches only what set-up needs.
  const staffEnrolling = requireStaff(verifier, { allowMfaEnrollment: true });
  const admin = requireStaff(verifier, { roles: ['ADMIN'] });

  // Only failures count. The guessing client is refused first, for that account: its refusals then count nowhere
  // else, so it adds at most its own few tries to the account's count. Past the account's threshold its sign-ins
  // are slowed, never refused: strangers can push an account there, and its owner must still get in.
  const loginLimits = [
    rateLimit({
      name: 'login-account-client',
      counters: deps.rateLimits,
      windowMs,
      limit: abuseLimits.loginFailuresPerAccountAndClient,
      skipSuccessfulRequests: true,
      message: tooMany,
      key: (req) => `${accountKey('login', req.body?.username)}:${clientAddress(req)}`,
    }),
    rateLimit({
      name: 'login-account',
      counters: deps.rateLimits,
      windowMs,
      limit: abuseLimits.loginFailuresPerAccount,
      skipSuccessfulRequests: true,
      slowDownMs: (over) => Math.min(over * abuseLimits.loginSlowDownStepMs, abuseLimits.loginSlowDownMaxMs),
      key: (req) => accountKey('login', req.body?.username),
    }),
    rateLimit({
      name: 'login-client',
      counters: deps.rateLimits,
      windowMs,
      limit: abuseLimits.loginFailuresPerClient,
      skipSuccessfulRequests: true,
      message: tooMany,
      key: (req) => `login:${clientAddress(req)}`,
    }),
  ];
  const mfaLimit = rateLimit({
    name: 'mfa-client',
    counters: deps.rateLimits,
    windowMs,
    limit: abuseLimits.mfaFailuresPerClient,
    skipSuccessfulRequests: true,
    message: tooMany,
    key: (req) => `mfa:${clientAddress(req)}`,
  });
  // The limiter's key is synchronous: the challenge's owner is looked up first and kept per request.
  const challengeOwners = new WeakMap<Request, string>();
  const findChallengeOwner: RequestHandler = (req, _res, next) => {
    const challengeId = bearerToken(req);
    if (!challengeId) {
      next();
      return;
    }
    challengeOwner(deps, challengeId).then((owner) => {
      if (owner) challengeOwners.set(req, owner);
      next();
    }, next);
  };
  const mfaAccountLimit = rateLimit({
    name: 'mfa-account',
    counters: deps.rateLimits,
    windowMs,
    limit: abuseLimits.mfaFailuresPerAccount,
    skipSuccessfulRequests: true,
    message: tooMany,
    key: (req) => `mfa-account:${challengeOwners.get(req) ?? 'no live challenge'}`,
  });
  const resetLimits = [
    rateLimit({
      name: 'reset-account',
      counters: deps.rateLimits,
      windowMs,
      limit: abuseLimits.resetRequestsPerAccount,
      message: tooMany,
      key: (req) => accountKey('reset', bearerToken(req)),
    }),
    rateLimit({
      name: 'reset-client',
      counters: deps.rateLimits,
      windowMs,
      limit: abuseLimits.resetRequestsPerClient,
      message: tooMany,
      key: (req) => `reset:${clientAddress(req)}`,
    }),
  ];

  // Limited like the sign-in it prepares, per client: a salt costs nothing, but a scan of addresses should too.
  const saltLimit = rateLimit({
    name: 'salt-client',
    counters: deps.rateLimits,
    windowMs,
    limit: abuseLimits.saltRequestsPerClient,
    message: tooMany,
    key: (req) => `salt:${clientAddress(req)}`,
  });
  router.post('/api/account/token/salt', saltLimit, async (req, res) => {
    const { username } = parseBody(saltRequestSchema, req.body);
    res.set('Cache-Control', 'no-store').json(await passwordSalt(deps, username));
  });

  router.post('/api/account/token', ...loginLimits, async (req, res) => {
    res.json(await login(deps, parseBody(loginRequestSchema, req.body)));
  });

  router.post('/api/account/token/mfa', mfaLimit, findChallengeOwner, mfaAccountLimit, async (req, res) => {
    const challengeId = bearerToken(req);
    if (!challengeId) throw new AuthenticationError('Invalid or expired MFA challenge');
    const { challenge_code } = parseBody(mfaChallengeRequestSchema, req.body);
    res.json(await completeMfa(deps, challengeId, challenge_code));
  });

  router.post('/api/account/token/refresh', staffEnrolling, async (req, res) => {
    res.json(await refreshSession(deps, staffOf(req)));
  });

  router.post('/api/account/token/revoke', staffEnrolling, async (req, res) => {
    await revokeSession(deps, staffOf(req));
    res.status(204).end();
  });

  router.get('/api/account/token/jwks', async (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300').json(await deps.issuer.jwks());
  });

  router.get('/api/account/company', staffEnrolling, async (req, res) => {
    res.json(await ownCompany(deps, staffOf(req)));
  });

  router.get('/api/account/company/profile', staffEnrolling, async (req, res) => {
    res.json(await ownProfile(deps, staffOf(req)));
  });

  router.post('/api/account/company/profile/mfa', mfaLimit, staffEnrolling, async (req, res) => {
    const { challenge_code } = parseBody(mfaSetupRequestSchema, req.body);
    res.json(
      challenge_code === undefined
        ? await startMfaSetup(deps, staffOf(req))
        : await confirmMfaSetup(deps, staffOf(req), challenge_code),
    );
  });

  // A staff token changes the own name or password; a reset or invitation link's token (same header) sets a password once.
  router.put('/api/account/profile', mfaLimit, (req, res, next) => {
    const token = bearerToken(req);
    if (token && !isJwt(token)) {
      const input = parseBody(linkPasswordRequestSchema, req.body);
      setPasswordWithLink(deps, token, input).then(() => res.status(204).end(), next);
      return;
    }
    staffEnrolling(req, res, (error?: unknown) => {
      if (error) {
        next(error);
        return;
      }
      const input = parseBody(profileUpdateRequestSchema, req.body);
      updateProfile(deps, staffOf(req), input).then((profile) => res.json(profile), next);
    });
  });

  // The same password derived again with the current kdf (a sign-in's background step): limited like a password
  // change, since a wrong proof is a password guess.
  router.put('/api/account/profile/password/kdf', mfaLimit, staffEnrolling, async (req, res) => {
    await upgradePasswordKdf(deps, staffOf(req), parseBody(passwordKdfUpgradeRequestSchema, req.body));
    res.status(204).end();
  });

  router.get('/api/account/profile/notifications', staff, async (req, res) => {
    res.json(await ownMailPreferences(deps, staffOf(req)));
  });

  router.put('/api/account/profile/notifications', staff, async (req, res) => {
    res.json(await setMailPreferences(deps, staffOf(req), parseBody(mailPreferencesSchema, req.body)));
  });

  router.put('/api/account/profile/password/reset', ...resetLimits, async (req: Request, res) => {
    const parsed = resetEmail.safeParse(bearerToken(req) ?? '');
    if (!parsed.success) throw new AuthenticationError('The e-mail address is missing');
    // Answered before anything is looked up: the same answer, at the same speed, whether the address exists.
    res.status(204).end();
    requestPasswordReset(deps, parsed.data).catch((err: unknown) =>
      deps.logger.error({ err }, 'password reset not prepared'),
    );
  });

  // Each invitation mails an address the admin chose: an admin's (or a stolen admin token's) flood stops here.
  const invitationLimits = [
    rateLimit({
      name: 'invitation-admin',
      counters: deps.rateLimits,
      windowMs: abuseLimits.invitationWindowMs,
      limit: abuseLimits.invitationsPerAdmin,
      message: tooManyInvitations,
      key: (req) => `invitation-admin:${staffOf(req).userId}`,
    }),
    rateLimit({
      name: 'invitation-company',
      counters: deps.rateLimits,
      windowMs: abuseLimits.invitationWindowMs,
      limit: abuseLimits.invitationsPerCompany,
      message: tooManyInvitations,
      key: (req) => `invitation-company:${staffOf(req).companyId}`,
    }),
  ];

  router.post('/api/account/company/user_profile', admin, ...invitationLimits, async (req, res) => {
    res.status(201).json(await inviteUser(deps, staffOf(req), parseBody(userProfileCreateRequestSchema, req.body)));
  });

  router.put('/api/account/company/user_profile', admin, async (req, res) => {
    res.json(await changeRoles(deps, staffOf(req), parseBody(userRolesUpdateRequestSchema, req.body)));
  });

  router.post('/api/account/company/user_profile/invitation', admin, ...invitationLimits, async (req, res) => {
    await resendInvitation(deps, staffOf(req), parseBody(invitationResendRequestSchema, req.body).uuid);
    res.status(204).end();
  });

  router.delete('/api/account/company/user_profile', admin, async (req, res) => {
    await deleteUser(deps, staffOf(req), parseBody(userProfileDeleteRequestSchema, req.body).uuid);
    res.status(204).end();
  });

  router.put('/api/account/company/mfa', admin, async (req, res) => {
    res.json(
      await setCompanyMfaRequired(deps, staffOf(req), parseBody(companyMfaRequestSchema, req.body).mfa_required),
    );
  });

  return router;
}
