import { Router } from 'express';
import {
  customizationUpdateRequestSchema,
  languagesUpdateRequestSchema,
  logoUploadRequestSchema,
  urlIdentifierSchema,
} from '@whistle/contracts';
import { NotFoundError, parseBody } from '@whistle/service-kit';
import { requireStaff, staffOf, type StaffTokenVerifier } from '@whistle/tokens';
import {
  getCustomization,
  publicLogo,
  removeLogo,
  updateCustomization,
  updateLanguages,
  uploadLogo,
  type CustomizationDependencies,
} from '../../domain/customization/customization.use-case';
import { notModified } from './conditional-get';

/** An image answer runs nothing and loads nothing, even an SVG opened on its own in a tab. */
const IMAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'";
const A_YEAR = 365 * 24 * 60 * 60;

/**
 * The discloser landing page's customisation: title, description and logo, its languages (ADMIN, own company
 * only), and the logo served to everyone. Mounted before the company routes, whose `:url_identifier` would take `customization`.
 */
export function customizationRoutes(deps: CustomizationDependencies, verifier: StaffTokenVerifier): Router {
  const router = Router();
  const admin = requireStaff(verifier, { roles: ['ADMIN'] });

  router.get('/api/account/company/customization', admin, async (req, res) => {
    res.json(await getCustomization(deps, staffOf(req)));
  });
  router.put('/api/account/company/customization', admin, async (req, res) => {
    res.json(await updateCustomization(deps, staffOf(req), parseBody(customizationUpdateRequestSchema, req.body)));
  });
  router.put('/api/account/company/languages', admin, async (req, res) => {
    res.json(await updateLanguages(deps, staffOf(req), parseBody(languagesUpdateRequestSchema, req.body)));
  });
  router.put('/api/account/company/customization/logo', admin, async (req, res) => {
    res.json(await uploadLogo(deps, staffOf(req), parseBody(logoUploadRequestSchema, req.body)));
  });
  router.delete('/api/account/company/customization/logo', admin, async (req, res) => {
    res.json(await removeLogo(deps, staffOf(req)));
  });

  router.get('/api/account/company/:url_identifier/logo', async (req, res) => {
    const urlIdentifier = urlIdentifierSchema.safeParse(req.params.url_identifier);
    if (!urlIdentifier.success) throw new NotFoundError('Logo not found');
    const logo = await publicLogo(deps, urlIdentifier.data);
    res.set('Content-Security-Policy', IMAGE_CSP).set('X-Content-Type-Options', 'nosniff');
    // The address with the current hash never changes content: cacheable for good. Any other (an old link,
    // no hash) is revalidated, so a new logo shows at once.
    const current = req.query.v === logo.sha256.slice(0, 16);
    if (
      notModified(req, res, `"${logo.sha256}"`, current ? `public, max-age=${A_YEAR}, immutable` : 'public, no-cache')
    )
      return;
    const body = await logo.open();
    res.set('Content-Type', logo.contentType);
    body.on('error', (err) => res.destroy(err));
    body.pipe(res);
  });

  return router;
}
