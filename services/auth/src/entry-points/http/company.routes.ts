import { createHash } from 'node:crypto';
import { Router } from 'express';
import { LRUCache } from 'lru-cache';
import QRCode from 'qrcode';
import { companyConfirmationRequestSchema, companyCreateRequestSchema, urlIdentifierSchema } from '@whistle/contracts';
import { NotFoundError, parseBody, rateLimit, type Database, type RateLimitCounters } from '@whistle/service-kit';
import { confirmCompany, type ConfirmCompanyDependencies } from '../../domain/company/confirm-company.use-case';
import { createCompany, type CreateCompanyDependencies } from '../../domain/company/create-company.use-case';
import type { PublicCompanyCache } from '../../domain/company/public-company-cache';
import { notModified } from './conditional-get';

export interface CompanyRoutesDependencies extends CreateCompanyDependencies, ConfirmCompanyDependencies {
  db: Database;
  publicUrl: string;
  rateLimits: RateLimitCounters;
  publicCompanies: PublicCompanyCache;
  /** Registrations per address per hour (ONBOARDING_LIMIT_PER_ADDRESS). */
  onboardingsPerAddress: number;
}

/** Disclosers' browsers and CDNs keep the answer but ask again each time; unchanged, it is a bodiless 304. */
const REVALIDATE = 'no-cache';

/** A url_identifier that is not even well-formed is answered like an unknown one: 404, nothing looked up. */
function parseUrlIdentifier(value: string): string {
  const parsed = urlIdentifierSchema.safeParse(value);
  if (!parsed.success) throw new NotFoundError('Company not found');
  return parsed.data;
}

export function companyRoutes(deps: CompanyRoutesDependencies): Router {
  const router = Router();
  const onboardingLimit = rateLimit({
    name: 'onboarding',
    counters: deps.rateLimits,
    windowMs: 60 * 60 * 1000,
    limit: 20,
    message: 'Too many accounts created from this network, please try again later',
  });

  // Each onboarding mails the address given: an address is not a target to flood, whoever sends.
  const addressLimit = rateLimit({
    name: 'onboarding-address',
    counters: deps.rateLimits,
    windowMs: 60 * 60 * 1000,
    limit: deps.onboardingsPerAddress,
    message: 'Too many accounts created from this network, please try again later',
    key: (req) => {
      const email = (req.body as { user_profile?: { email?: unknown } } | undefined)?.user_profile?.email;
      return `onboarding-address:${typeof email === 'string' ? email.trim().toLowerCase() : ''}`;
    },
  });
  const confirmationLimit = rateLimit({
    name: 'onboarding-confirmation',
    counters: deps.rateLimits,
    windowMs: 60 * 60 * 1000,
    limit: 30,
    message: 'Too many attempts, please try again later',
  });

  router.post('/api/account/company', onboardingLimit, addressLimit, async (req, res) => {
    res.status(201).json(await createCompany(deps, parseBody(companyCreateRequestSchema, req.body)));
  });

  router.post('/api/account/company/confirmation', confirmationLimit, async (req, res) => {
    res.json(await confirmCompany(deps, parseBody(companyConfirmationRequestSchema, req.body).token));
  });

  router.get('/api/account/company/:url_identifier', async (req, res) => {
    const company = await deps.publicCompanies.get(parseUrlIdentifier(req.params.url_identifier));
    if (notModified(req, res, company.etag, REVALIDATE)) return;
    res.type('json').send(company.json);
  });

  // A company's QR code depends only on its url_identifier (which never changes) and PUBLIC_URL: made once.
  const qrCodes = new LRUCache<string, { png: Buffer; etag: string }>({ max: 1000 });
  router.get('/api/account/company/:url_identifier/qrcode', async (req, res) => {
    const urlIdentifier = parseUrlIdentifier(req.params.url_identifier);
    // Only a company's: an unknown url_identifier is a 404.
    await deps.publicCompanies.get(urlIdentifier);
    let qrCode = qrCodes.get(urlIdentifier);
    if (!qrCode) {
      const link = new URL(`/disclose/${urlIdentifier}`, deps.publicUrl).toString();
      const png = await QRCode.toBuffer(link, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 320 });
      qrCode = { png, etag: `"${createHash('sha256').update(png).digest('base64url')}"` };
      qrCodes.set(urlIdentifier, qrCode);
    }
    if (notModified(req, res, qrCode.etag, 'public, max-age=3600')) return;
    res.type('png').send(qrCode.png);
  });

  return router;
}
