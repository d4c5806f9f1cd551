import { Router } from 'express';
import { replyTemplateRequestSchema } from '@whistle/contracts';
import { NotFoundError, parseBody, type Database } from '@whistle/service-kit';
import { requireStaff, staffOf, type StaffTokenVerifier } from '@whistle/tokens';
import { z } from 'zod';
import {
  createReplyTemplate,
  deleteReplyTemplate,
  listReplyTemplates,
  updateReplyTemplate,
} from '../../domain/reply-templates/reply-templates.use-case';

const uuid = z.uuid();
/** A path id that is not a uuid names nothing: the same 404 as an id of another company. */
const templateId = (value: unknown): string => {
  const parsed = uuid.safeParse(value);
  if (!parsed.success) throw new NotFoundError('Reply template not found');
  return parsed.data.toLowerCase();
};

/**
 * The company's reply templates (issue 23 item 4): every staff member reads them (the case page's reply box), admins
 * manage them; company configuration, like labels and locations.
 */
export function replyTemplateRoutes(deps: { db: Database }, verifier: StaffTokenVerifier): Router {
  const router = Router();
  const staff = requireStaff(verifier);
  const admin = requireStaff(verifier, { roles: ['ADMIN'] });

  router.get('/api/account/company/reply_template', staff, async (req, res) => {
    res.json(await listReplyTemplates(deps.db, staffOf(req)));
  });
  router.post('/api/account/company/reply_template', admin, async (req, res) => {
    res
      .status(201)
      .json(await createReplyTemplate(deps, staffOf(req), parseBody(replyTemplateRequestSchema, req.body)));
  });
  router.put('/api/account/company/reply_template/:templateId', admin, async (req, res) => {
    const input = parseBody(replyTemplateRequestSchema, req.body);
    res.json(await updateReplyTemplate(deps, staffOf(req), templateId(req.params.templateId), input));
  });
  router.delete('/api/account/company/reply_template/:templateId', admin, async (req, res) => {
    await deleteReplyTemplate(deps.db, staffOf(req), templateId(req.params.templateId));
    res.status(204).end();
  });

  return router;
}
