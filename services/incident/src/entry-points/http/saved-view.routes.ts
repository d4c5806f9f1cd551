import { Router } from 'express';
import { savedViewCreateRequestSchema } from '@whistle/contracts';
import { NotFoundError, parseBody, type Database } from '@whistle/service-kit';
import type { StaffTokenVerifier } from '@whistle/tokens';
import { deleteSavedView, listSavedViews, saveView } from '../../domain/views/saved-views.use-case';
import { callerScope, staffViewerOf } from './incident-access';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A staff member's saved views of the case list (issue 23 item 2), each person's own; mounted before the case
 * routes, whose `/api/incident/:incident_uuid` would take the path.
 */
export function savedViewRoutes(deps: { db: Database; staffTokens: StaffTokenVerifier }): Router {
  const router = Router();
  const staff = callerScope(deps);

  router.get('/api/incident/saved-view', staff, async (req, res) => {
    res.json(await listSavedViews(deps.db, staffViewerOf(req)));
  });

  router.post('/api/incident/saved-view', staff, async (req, res) => {
    const input = parseBody(savedViewCreateRequestSchema, req.body);
    res.status(201).json(await saveView(deps, staffViewerOf(req), input));
  });

  router.delete('/api/incident/saved-view/:view_uuid', staff, async (req, res) => {
    const id = String(req.params.view_uuid);
    if (!uuidPattern.test(id)) throw new NotFoundError('Saved view not found');
    await deleteSavedView(deps.db, staffViewerOf(req), id.toLowerCase());
    res.status(204).end();
  });

  return router;
}
