import { Router, type CookieOptions, type Request } from 'express';
import { ssoRedirectRequestSchema, ssoSettingsRequestSchema, ssoTokenRequestSchema } from '@whistle/contracts';
import { clientAddress, parseBody, rateLimit } from '@whistle/service-kit';
import { requireStaff, staffOf, type StaffTokenVerifier } from '@whistle/tokens';
import { abuseLimits } from '../../domain/account/abuse-limits';
import type { AccountDependencies } from '../../domain/account/account-dependencies';
import {
  acceptSamlResponse,
  exchangeSsoCode,
  saveSsoSettings,
  serviceProviderMetadata,
  ssoRedirectUrl,
  ssoSettings,
} from '../../domain/sso/saml-sign-in.use-case';
import { newOneTimeSecret } from '../../domain/account/one-time-secret';

/**
 * The browser's SSO nonce (login CSRF): set when it starts a sign-in, sent back only to the SSO routes, never
 * readable by script. Lax: the same-origin /sso/token call carries it; the IdP's cross-site post to the ACS
 * does not need it (the request it answers carries the binding).
 */
const SSO_COOKIE = 'whistle_sso';
/** The AuthnRequest's 10 minutes and the code's 2. */
const SSO_COOKIE_MAX_AGE_MS = 12 * 60 * 1000;

/** The nonce this browser holds, if it is one we could have set (256 bits, base64url). */
function browserNonceOf(req: Request): string | undefined {
  return /(?:^|;\s*)whistle_sso=([A-Za-z0-9_-]{43})(?:;|$)/.exec(req.headers.cookie ?? '')?.[1];
}

/** SAML 2.0 single sign-on, SP-initiated: redirect → IdP → ACS → one-time code → token (or MFA challenge). */
export function ssoRoutes(deps: AccountDependencies, verifier: StaffTokenVerifier): Router {
  const router = Router();
  const admin = requireStaff(verifier, { roles: ['ADMIN'] });
  const cookieOptions: CookieOptions = {
    httpOnly: true,
    secure: deps.publicUrl.startsWith('https:'),
    sameSite: 'lax',
    path: '/api/account/company/sso',
    maxAge: SSO_COOKIE_MAX_AGE_MS,
  };
  const ssoLimit = rateLimit({
    name: 'sso',
    counters: deps.rateLimits,
    windowMs: abuseLimits.windowMs,
    limit: abuseLimits.ssoRequestsPerClient,
    message: 'Too many attempts, please try again later',
    key: (req) => `sso:${clientAddress(req)}`,
  });

  router.get('/api/account/company/sso', admin, async (req, res) => {
    res.json(await ssoSettings(deps, staffOf(req)));
  });

  router.put('/api/account/company/sso', admin, async (req, res) => {
    res.json(await saveSsoSettings(deps, staffOf(req), parseBody(ssoSettingsRequestSchema, req.body)));
  });

  // A browser form post (spec §7); the browser follows the 303 to the identity provider.
  router.post('/api/account/company/sso/redirect', ssoLimit, async (req, res) => {
    const { email } = parseBody(ssoRedirectRequestSchema, req.body);
    // A browser keeps its nonce across sign-ins started in several tabs: each tab's code stays redeemable.
    const nonce = browserNonceOf(req) ?? newOneTimeSecret().secret;
    const location = await ssoRedirectUrl(deps, email, nonce);
    res.cookie(SSO_COOKIE, nonce, cookieOptions).redirect(303, location);
  });

  // The entity id is a URL: it answers with the SP metadata an IdP administrator imports.
  router.get('/api/account/company/sso/metadata', (_req, res) => {
    res.type('application/samlmetadata+xml').send(serviceProviderMetadata(deps.publicUrl));
  });

  // The identity provider's HTTP-POST binding lands here; the browser then continues at the SSO page with a
  // code, or with the reason it did not work (never raw JSON in the person's browser).
  router.post('/api/account/company/sso/acs', ssoLimit, async (req, res) => {
    res.redirect(303, await acceptSamlResponse(deps, req.body ?? {}));
  });

  router.post('/api/account/company/sso/token', ssoLimit, async (req, res) => {
    res.json(await exchangeSsoCode(deps, parseBody(ssoTokenRequestSchema, req.body).code, browserNonceOf(req)));
  });

  return router;
}
