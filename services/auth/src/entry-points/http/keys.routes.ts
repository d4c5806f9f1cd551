import { Router, type RequestHandler } from 'express';
import {
  companyKeyGrantRequestSchema,
  companyKeyMigrationRequestSchema,
  companyKeyRotationRequestSchema,
  keyEndorsementRequestSchema,
  newPersonKeysSchema,
  recoveryKitRequestSchema,
  unlockMethodInputSchema,
} from '@whistle/contracts';
import { NotFoundError, parseBody } from '@whistle/service-kit';
import { requireStaff, staffOf, type StaffTokenVerifier } from '@whistle/tokens';
import { z } from 'zod';
import { assertMfaComplete, type KeyDependencies } from '../../domain/keys/key-dependencies';
import type { KeyEncryptionKey } from '../../domain/secrets/key-encryption';
import {
  companyKeys,
  declineCompanyKeyRequest,
  grantCompanyKey,
  migrateCompanyKey,
  requestCompanyKey,
  rotateRecoveryKit,
  teamKeys,
} from '../../domain/keys/company-keys.use-case';
import { endorseKey } from '../../domain/keys/key-endorsements.use-case';
import { startCompanyKeyRotation } from '../../domain/keys/company-key-rotation.use-case';
import { addUnlockMethod, createOwnKeys, ownKeys, removeUnlockMethod } from '../../domain/keys/own-keys.use-case';

const uuidParam = z.uuid({ error: 'Not found' });

/**
 * Keys held by people: the caller's own keys (/api/account/profile/keys) and the company key
 * (/api/account/company/keys). MFA must be complete: sealed copies and wrappings go to a whole session only.
 * Nothing here is cached: what it hands out is someone's, and changes.
 */
export function keysRoutes(deps: KeyDependencies & { kek: KeyEncryptionKey }, verifier: StaffTokenVerifier): Router {
  const router = Router();
  const mfaComplete: RequestHandler = (req, _res, next) => {
    assertMfaComplete(deps, staffOf(req)).then(() => next(), next);
  };
  const staff = [requireStaff(verifier), mfaComplete];
  const admin = [requireStaff(verifier, { roles: ['ADMIN'] }), mfaComplete];
  router.use(['/api/account/profile/keys', '/api/account/company/keys'], (_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  router.get('/api/account/profile/keys', ...staff, async (req, res) => {
    res.json(await ownKeys(deps, staffOf(req)));
  });
  router.put('/api/account/profile/keys', ...staff, async (req, res) => {
    res.status(201).json(await createOwnKeys(deps, staffOf(req), parseBody(newPersonKeysSchema, req.body)));
  });
  router.post('/api/account/profile/keys/unlock', ...staff, async (req, res) => {
    res.status(201).json(await addUnlockMethod(deps, staffOf(req), parseBody(unlockMethodInputSchema, req.body)));
  });
  router.delete('/api/account/profile/keys/unlock/:id', ...staff, async (req, res) => {
    const id = uuidParam.safeParse(req.params.id);
    if (!id.success) throw new NotFoundError('Unlock method not found');
    res.json(await removeUnlockMethod(deps, staffOf(req), id.data));
  });

  router.get('/api/account/company/keys', ...staff, async (req, res) => {
    res.json(await companyKeys(deps, staffOf(req)));
  });
  router.get('/api/account/company/keys/people', ...staff, async (req, res) => {
    res.json(await teamKeys(deps, staffOf(req)));
  });
  router.post('/api/account/company/keys/migration', ...admin, async (req, res) => {
    await migrateCompanyKey(deps, staffOf(req), parseBody(companyKeyMigrationRequestSchema, req.body));
    res.status(204).end();
  });
  router.post('/api/account/company/keys/grants', ...admin, async (req, res) => {
    await grantCompanyKey(deps, staffOf(req), parseBody(companyKeyGrantRequestSchema, req.body));
    res.status(204).end();
  });
  router.post('/api/account/company/keys/endorsements', ...admin, async (req, res) => {
    await endorseKey(deps, staffOf(req), parseBody(keyEndorsementRequestSchema, req.body));
    res.status(204).end();
  });
  router.post('/api/account/company/keys/requests', ...staff, async (req, res) => {
    res.status(201).json(await requestCompanyKey(deps, staffOf(req)));
  });
  router.delete('/api/account/company/keys/requests/:id', ...admin, async (req, res) => {
    const id = uuidParam.safeParse(req.params.id);
    if (!id.success) throw new NotFoundError('Request not found');
    await declineCompanyKeyRequest(deps, staffOf(req), id.data);
    res.status(204).end();
  });
  router.put('/api/account/company/keys/recovery', ...admin, async (req, res) => {
    await rotateRecoveryKit(deps, staffOf(req), parseBody(recoveryKitRequestSchema, req.body));
    res.status(204).end();
  });
  router.post('/api/account/company/keys/rotation', ...admin, async (req, res) => {
    const body = parseBody(companyKeyRotationRequestSchema, req.body);
    res.status(201).json(await startCompanyKeyRotation(deps, staffOf(req), body));
  });
  return router;
}
