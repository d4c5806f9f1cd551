import { Router } from 'express';
import QRCode from 'qrcode';
import { companyCreateRequestSchema, urlIdentifierSchema } from '@whistle/contracts';
import { NotFoundError, parseBody, rateLimit, type Queryable, type RateLimitCounters } from '@whistle/service-kit';
import { createCompany, type CreateCompanyDependencies } from '../../domain/company/create-company.use-case';
import { companyPublicView } from '../../domain/company/company-public-view.use-case';

export interface CompanyRoutesDependencies extends CreateCompanyDependencies {
  db: Queryable;
  publicUrl: string;
  rateLimits: RateLimitCounters;
}

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

  router.post('/api/account/company', onboardingLimit, async (req, res) => {
    res.status(201).json(await createCompany(deps, parseBody(companyCreateRequestSchema, req.body)));
  });

  router.get('/api/account/company/:url_identifier', async (req, res) => {
    const view = await companyPublicView(deps.db, parseUrlIdentifier(req.params.url_identifier));
    res.set('Cache-Control', 'no-cache').json(view);
  });

  router.get('/api/account/company/:url_identifier/qrcode', async (req, res) => {
    const view = await companyPublicView(deps.db, parseUrlIdentifier(req.params.url_identifier));
    const link = new URL(`/disclose/${view.url_identifier}`, deps.publicUrl).toString();
    const png = await QRCode.toBuffer(link, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 320 });
    res.set('Content-Type', 'image/png').set('Cache-Control', 'public, max-age=3600').send(png);
  });

  return router;
}
