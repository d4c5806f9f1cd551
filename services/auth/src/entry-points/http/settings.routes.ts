import { Router } from 'express';
import {
  categoryCreateRequestSchema,
  categoryUpdateRequestSchema,
  companyUpdateRequestSchema,
  locationRequestSchema,
} from '@whistle/contracts';
import { NotFoundError, parseBody } from '@whistle/service-kit';
import { requireStaff, staffOf, type StaffTokenVerifier } from '@whistle/tokens';
import { z } from 'zod';
import { updateCompany } from '../../domain/company/company-settings.use-case';
import { createCategory, deleteCategory, updateCategory } from '../../domain/labels/category.use-case';
import type { LabelDependencies } from '../../domain/labels/label-dependencies';
import { createLocation, deleteLocation, updateLocation } from '../../domain/labels/location.use-case';

const uuid = z.uuid();
/** A path id that is not a uuid names nothing: the same 404 as an id of another company. */
const pathId = (value: unknown, notFound: string): string => {
  const parsed = uuid.safeParse(value);
  if (!parsed.success) throw new NotFoundError(notFound);
  return parsed.data;
};

/** The admin's company settings, reporting labels and locations (spec §7 Account). */
export function settingsRoutes(deps: LabelDependencies, verifier: StaffTokenVerifier): Router {
  const router = Router();
  const admin = requireStaff(verifier, { roles: ['ADMIN'] });

  router.put('/api/account/company', admin, async (req, res) => {
    res.json(await updateCompany(deps, staffOf(req), parseBody(companyUpdateRequestSchema, req.body)));
  });

  router.post('/api/account/company/category', admin, async (req, res) => {
    res.status(201).json(await createCategory(deps, staffOf(req), parseBody(categoryCreateRequestSchema, req.body)));
  });
  router.put('/api/account/company/category/:categoryId', admin, async (req, res) => {
    const categoryId = pathId(req.params.categoryId, 'Category not found');
    res.json(await updateCategory(deps, staffOf(req), categoryId, parseBody(categoryUpdateRequestSchema, req.body)));
  });
  router.delete('/api/account/company/category/:categoryId', admin, async (req, res) => {
    res.json(await deleteCategory(deps, staffOf(req), pathId(req.params.categoryId, 'Category not found')));
  });

  router.post('/api/account/company/location', admin, async (req, res) => {
    res.status(201).json(await createLocation(deps, staffOf(req), parseBody(locationRequestSchema, req.body)));
  });
  router.put('/api/account/company/location/:locationId', admin, async (req, res) => {
    const locationId = pathId(req.params.locationId, 'Location not found');
    res.json(await updateLocation(deps, staffOf(req), locationId, parseBody(locationRequestSchema, req.body)));
  });
  router.delete('/api/account/company/location/:locationId', admin, async (req, res) => {
    res.json(await deleteLocation(deps, staffOf(req), pathId(req.params.locationId, 'Location not found')));
  });

  return router;
}
