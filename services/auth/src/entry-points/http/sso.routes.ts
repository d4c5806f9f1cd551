import { Router } from 'express';
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

/** SAML 2.0 single sign-on, SP-initiated: redirect → IdP → ACS → one-time code → token (or MFA challenge). */
export function ssoRoutes(deps: AccountDependencies, verifier: StaffTokenVerifier): Router {
  const router = Router();
  const admin = requireStaff(verifier, { roles: ['ADMIN'] });
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
    res.redirect(303, await ssoRedirectUrl(deps, email));
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
    res.json(await exchangeSsoCode(deps, parseBody(ssoTokenRequestSchema, req.body).code));
  });

  return router;
}
