import { X509Certificate } from 'node:crypto';
import {
  SAML,
  ValidateInResponseTo,
  generateServiceProviderMetadata,
  type CacheProvider,
} from '@node-saml/passport-saml';
import { DOMParser } from '@xmldom/xmldom';
import type { LoginResponse, SsoCertificate, SsoSettingsRequest, SsoSettingsResponse } from '@whistle/contracts';
import { AuthenticationError, InputError } from '@whistle/service-kit';
import type { StaffPrincipal } from '@whistle/tokens';
import { userRepository } from '../../data-access/user.repository';
import { oneTimeSecretRepository } from '../../data-access/one-time-secret.repository';
import { companyRepository } from '../../data-access/company.repository';
import { ssoRepository, type SsoSettingsRow } from '../../data-access/sso.repository';
import { secretLifetimes } from '../account/abuse-limits';
import type { AccountDependencies } from '../account/account-dependencies';
import { hashOfSecret, newOneTimeSecret } from '../account/one-time-secret';
import { continueSignIn } from '../account/sign-in-steps';
import { emailDomainOf } from '../company/email-domain-policy';

/** How long an AuthnRequest waits for its answer. */
const REQUEST_LIFETIME_MS = 10 * 60 * 1000;
export const SSO_LOGIN_PAGE = '/company/login/sso';

export function serviceProvider(publicUrl: string) {
  return {
    entity_id: new URL('/api/account/company/sso/metadata', publicUrl).toString(),
    acs_url: new URL('/api/account/company/sso/acs', publicUrl).toString(),
  };
}

const EMAIL_NAME_ID_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/**
 * The SP metadata an IdP administrator imports (served at the entity id): entity id, ACS (HTTP-POST),
 * NameID format, and that assertions must be signed. The same for every company: each company's IdP
 * is told apart by the RelayState of the request.
 */
export function serviceProviderMetadata(publicUrl: string): string {
  const sp = serviceProvider(publicUrl);
  return generateServiceProviderMetadata({
    issuer: sp.entity_id,
    callbackUrl: sp.acs_url,
    identifierFormat: EMAIL_NAME_ID_FORMAT,
    wantAssertionsSigned: true,
  });
}

const certificateError = (message: string) => new InputError('Bad Request', { idp_certificate: [message] });

/** A PEM body without armour or whitespace, as node-saml wants it; refuses what is not base64 DER. */
function certificateBody(certificate: string): string {
  const body = certificate.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+=*$/.test(body) || body.length < 100) throw certificateError('Invalid certificate');
  return body;
}

/** The X.509 certificate a PEM (or bare base64 DER) holds; undefined when it holds none. */
function x509Of(certificate: string): X509Certificate | undefined {
  // Two certificates would be glued into one body by certificateBody: node-saml takes one.
  if ((certificate.match(/-----BEGIN CERTIFICATE-----/g) ?? []).length > 1) return undefined;
  try {
    return new X509Certificate(Buffer.from(certificateBody(certificate), 'base64'));
  } catch {
    return undefined;
  }
}

/** Distinguished names one attribute a line in node; shown on one line, as IdP consoles do. */
const oneLine = (name: string) => name.split('\n').filter(Boolean).join(', ');

function certificateView(certificate: X509Certificate): SsoCertificate {
  return {
    subject: oneLine(certificate.subject),
    issuer: oneLine(certificate.issuer),
    valid_from: new Date(certificate.validFrom).toISOString(),
    valid_to: new Date(certificate.validTo).toISOString(),
    fingerprint_sha256: certificate.fingerprint256,
  };
}

/**
 * What PUT accepts: exactly one parseable X.509 certificate that has not expired. An expired one would let
 * every sign-in fail later, far from the cause; one not yet valid is kept (an admin preparing a rotation).
 */
function acceptableCertificate(certificate: string): X509Certificate {
  const x509 = x509Of(certificate);
  if (!x509) throw certificateError('Invalid certificate');
  if (new Date(x509.validTo).getTime() <= Date.now()) throw certificateError('Expired certificate');
  return x509;
}

/**
 * node-saml for one company. Its request-id cache is the database (so any replica can take the
 * answer), scoped to the company; `consumed()` answers the request this validation removed — only
 * one response per request ever does, which refuses a replayed response even when both race. A new
 * request is saved with `browserBinding`, the hash of the starting browser's nonce.
 */
function samlFor(deps: AccountDependencies, settings: SsoSettingsRow, browserBinding?: string) {
  let consumed: { browser_binding: string | null } | undefined;
  const cacheProvider: CacheProvider = {
    async saveAsync(key, value) {
      if (!browserBinding) throw new Error('An AuthnRequest needs the browser it binds to');
      await ssoRepository.saveRequest(deps.db, settings.company_id, key, browserBinding);
      return { value, createdAt: Date.now() };
    },
    async getAsync(key) {
      const createdAt = await ssoRepository.requestCreatedAt(deps.db, settings.company_id, key);
      return createdAt ? createdAt.toISOString() : null;
    },
    async removeAsync(key) {
      if (key) consumed = (await ssoRepository.consumeRequest(deps.db, settings.company_id, key)) ?? consumed;
      return key;
    },
  };
  const sp = serviceProvider(deps.publicUrl);
  const saml = new SAML({
    entryPoint: settings.entry_point,
    idpCert: certificateBody(settings.idp_certificate),
    issuer: sp.entity_id,
    callbackUrl: sp.acs_url,
    audience: sp.entity_id,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: REQUEST_LIFETIME_MS,
    acceptedClockSkewMs: 5000,
    identifierFormat: EMAIL_NAME_ID_FORMAT,
    disableRequestedAuthnContext: true,
    cacheProvider,
  });
  return { saml, consumed: () => consumed };
}

/**
 * GET /api/account/company/sso (ADMIN). Before the first save it answers empty settings with
 * `configured: false`: the admin page still needs the service provider's entity id and ACS URL to hand
 * to the IdP before there is anything to save.
 */
export async function ssoSettings(deps: AccountDependencies, principal: StaffPrincipal): Promise<SsoSettingsResponse> {
  const settings = await ssoRepository.settings(deps.db, principal.companyId);
  return viewOf(deps, settings);
}

export async function saveSsoSettings(
  deps: AccountDependencies,
  principal: StaffPrincipal,
  input: SsoSettingsRequest,
): Promise<SsoSettingsResponse> {
  acceptableCertificate(input.idp_certificate);
  // Requiring an IdP that is switched off would leave non-admins with no way in at all.
  if (input.require_sso && !input.enabled)
    throw new InputError('Bad Request', { require_sso: ['Single sign-on must be enabled to require it'] });
  const settings: SsoSettingsRow = { company_id: principal.companyId, ...input };
  await ssoRepository.saveSettings(deps.db, settings);
  return viewOf(deps, settings);
}

function viewOf(deps: AccountDependencies, settings: SsoSettingsRow | undefined): SsoSettingsResponse {
  const x509 = settings && x509Of(settings.idp_certificate);
  return {
    configured: settings !== undefined,
    enabled: settings?.enabled ?? false,
    require_sso: settings?.require_sso ?? false,
    entry_point: settings?.entry_point ?? '',
    idp_certificate: settings?.idp_certificate ?? '',
    certificate: x509 ? certificateView(x509) : null,
    email_attribute: settings?.email_attribute ?? '',
    service_provider: serviceProvider(deps.publicUrl),
  };
}

/**
 * POST /api/account/company/sso/redirect: where the browser goes next. The company is found by the
 * e-mail's domain, so the answer says nothing about whether that user exists. `browserNonce`: the
 * secret of the browser's whistle_sso cookie; only that browser will redeem the code.
 */
export async function ssoRedirectUrl(deps: AccountDependencies, email: string, browserNonce: string): Promise<string> {
  const companyId = await companyRepository.idByEmailDomain(deps.db, emailDomainOf(email.toLowerCase()));
  const settings = companyId ? await ssoRepository.settings(deps.db, companyId) : undefined;
  if (!settings?.enabled) return `${SSO_LOGIN_PAGE}?error=sso_unavailable`;
  // RelayState names the company whose certificate checks the answer; the answer must also match a request of that company.
  return samlFor(deps, settings, hashOfSecret(browserNonce)).saml.getAuthorizeUrlAsync(
    settings.company_id,
    undefined,
    {},
  );
}

/** Why a sign-in through the IdP did not end in a code: the SSO page says it in the person's language. */
export type SsoFailure = 'sso_failed' | 'no_account';

const SAML_PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const SAML_ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';

/**
 * Whether the response was meant for this ACS: the Response's Destination (when given) and every
 * SubjectConfirmationData Recipient must name it (SAML 2.0 profiles §4.1.4.2-3). node-saml checks the
 * signature and audience but not these, so a response issued for another service provider that trusts
 * the same IdP would otherwise be accepted here.
 */
function addressedTo(samlResponse: string, acsUrl: string): boolean {
  // The signature was verified on this very document; a parse problem here only makes the check fail.
  const document = new DOMParser({ errorHandler: () => undefined }).parseFromString(
    Buffer.from(samlResponse, 'base64').toString('utf8'),
    'text/xml',
  );
  const response = document.getElementsByTagNameNS(SAML_PROTOCOL, 'Response')[0];
  if (!response) return false;
  const destination = response.getAttribute('Destination');
  if (destination && destination !== acsUrl) return false;
  const confirmations = Array.from(document.getElementsByTagNameNS(SAML_ASSERTION, 'SubjectConfirmationData'));
  return confirmations.length > 0 && confirmations.every((data) => data.getAttribute('Recipient') === acsUrl);
}

/**
 * POST /api/account/company/sso/acs: where the browser goes next. A valid, unreplayed assertion,
 * addressed to this ACS, for a user of that company → the SSO page with a one-time code; anything else →
 * the SSO page with the reason, which is also logged (never the address).
 */
export async function acceptSamlResponse(
  deps: AccountDependencies,
  body: { SAMLResponse?: unknown; RelayState?: unknown },
): Promise<string> {
  const refuse = (failure: SsoFailure, reason: string, companyId?: string) => {
    deps.logger.info({ reason, company_id: companyId }, 'SAML response refused');
    return `${SSO_LOGIN_PAGE}?error=${failure}`;
  };
  if (
    typeof body.SAMLResponse !== 'string' ||
    typeof body.RelayState !== 'string' ||
    !/^[0-9a-f-]{36}$/.test(body.RelayState)
  )
    return refuse('sso_failed', 'no SAMLResponse, or a RelayState that names no company');
  const settings = await ssoRepository.settings(deps.db, body.RelayState);
  if (!settings?.enabled) return refuse('sso_failed', 'single sign-on is not enabled for that company');
  const companyId = settings.company_id;
  const { saml, consumed } = samlFor(deps, settings);
  let profile;
  try {
    ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: body.SAMLResponse }));
  } catch (err) {
    return refuse('sso_failed', (err as Error).message, companyId);
  }
  if (!profile) return refuse('sso_failed', 'no profile in the response', companyId);
  const request = consumed();
  if (!request) return refuse('sso_failed', 'the response answers no pending request (replay)', companyId);
  if (!addressedTo(body.SAMLResponse, serviceProvider(deps.publicUrl).acs_url))
    return refuse('sso_failed', 'the response is addressed to another Destination or Recipient', companyId);
  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  const claimed = settings.email_attribute ? attributes[settings.email_attribute] : profile.nameID;
  const email = Array.isArray(claimed) ? claimed[0] : claimed;
  if (typeof email !== 'string' || email === '')
    return refuse(
      'sso_failed',
      settings.email_attribute
        ? `the assertion has no attribute ${settings.email_attribute}`
        : 'the assertion has no NameID',
      companyId,
    );
  const user = await userRepository.byEmail(deps.db, email);
  if (!user || user.company_id !== companyId)
    return refuse('no_account', 'the identity has no staff account in that company', companyId);

  const code = newOneTimeSecret();
  await oneTimeSecretRepository.insert(deps.db, {
    hash: code.hash,
    purpose: 'sso_code',
    userId: user.id,
    companyId: user.company_id,
    ttlMs: secretLifetimes.sso_code,
    // The browser that asked the IdP, not the one that posted its answer here (an auto-submitted form can).
    browserBinding: request.browser_binding,
  });
  return `${SSO_LOGIN_PAGE}?code=${encodeURIComponent(code.secret)}`;
}

/**
 * POST /api/account/company/sso/token: the code, once, in the browser that started the sign-in (its
 * whistle_sso nonce) → the same answer as a password login. In any other browser it is refused: an
 * attacker's own code, sent to a victim, would sign the victim into the attacker's account (login CSRF).
 */
export async function exchangeSsoCode(
  deps: AccountDependencies,
  code: string,
  browserNonce: string | undefined,
): Promise<LoginResponse> {
  const used = browserNonce
    ? await oneTimeSecretRepository.consumeBound(deps.db, hashOfSecret(code), 'sso_code', hashOfSecret(browserNonce))
    : undefined;
  const user = used ? await userRepository.byId(deps.db, used.company_id, used.user_id) : undefined;
  if (!user) throw new AuthenticationError('Invalid or expired code');
  return continueSignIn(deps, user, 'sso');
}
