import { Router } from 'express';
import { rewrapBatchSchema, rewrapCompleteSchema, rewrapPageQuerySchema } from '@whistle/contracts';
import { parseBody, parseQuery, type Database, type UnitOfWork } from '@whistle/service-kit';
import type { StaffTokenVerifier } from '@whistle/tokens';
import { completeRewrap, rewrapPage, storeRewrapped } from '../../domain/company-key/company-key-rewrap.use-case';
import { callerScope, staffViewerOf } from './incident-access';

export interface CompanyKeyRoutesDependencies {
  db: Database;
  unitOfWork: UnitOfWork;
  staffTokens: StaffTokenVerifier;
}

/**
 * A company key rotation's cases (ADMIN): mounted before the case routes, whose /api/incident/:incident_uuid would
 * take the path otherwise. What they hand out is wrappings, never cached.
 */
export function companyKeyRoutes(deps: CompanyKeyRoutesDependencies): Router {
  const router = Router();
  const staff = callerScope(deps);
  router.use('/api/incident/company-key', (_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  router.get('/api/incident/company-key/rewrap', staff, async (req, res) => {
    res.json(await rewrapPage(deps.db, staffViewerOf(req), parseQuery(rewrapPageQuerySchema, req.query)));
  });
  router.put('/api/incident/company-key/rewrap', staff, async (req, res) => {
    res.json(await storeRewrapped(deps, staffViewerOf(req), parseBody(rewrapBatchSchema, req.body)));
  });
  router.post('/api/incident/company-key/rewrap/complete', staff, async (req, res) => {
    const { key_version } = parseBody(rewrapCompleteSchema, req.body);
    res.status(202).json(await completeRewrap(deps, staffViewerOf(req), key_version));
  });
  return router;
}
