import { Router } from 'express';
import { retentionUpdateRequestSchema } from '@whistle/contracts';
import { parseBody, type Database, type UnitOfWork } from '@whistle/service-kit';
import type { StaffTokenVerifier } from '@whistle/tokens';
import {
  assertRetentionAdmin,
  getRetentionPolicy,
  setRetentionPolicy,
  type RetentionPolicyOptions,
} from '../../domain/retention/retention-policy.use-case';
import { callerScope, staffViewerOf } from './incident-access';

export interface RetentionRoutesDependencies {
  db: Database;
  unitOfWork: UnitOfWork;
  staffTokens: StaffTokenVerifier;
  policy: RetentionPolicyOptions;
}

/**
 * The company's retention policy (ADMIN). Mounted before the case routes, whose /api/incident/:incident_uuid
 * would take the path otherwise. The role is checked before the body: a non-admin learns nothing from a 400.
 */
export function retentionRoutes(deps: RetentionRoutesDependencies): Router {
  const router = Router();
  const staff = callerScope(deps);

  router.get('/api/incident/retention', staff, async (req, res) => {
    res.json(await getRetentionPolicy(deps.db, staffViewerOf(req), deps.policy));
  });

  router.put('/api/incident/retention', staff, async (req, res) => {
    const viewer = staffViewerOf(req);
    assertRetentionAdmin(viewer);
    const { retention_months } = parseBody(retentionUpdateRequestSchema, req.body);
    res.json(await setRetentionPolicy(deps, viewer, retention_months, deps.policy));
  });

  return router;
}
