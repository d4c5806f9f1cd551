import { pipeline } from 'node:stream/promises';
import { Router, type Request, type Response } from 'express';
import { FILE_UPLOAD_CONTENT_TYPE } from '@whistle/contracts';
import type { ObjectStore } from '@whistle/object-store';
import {
  asTenant,
  clientAddress,
  NotFoundError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  rateLimit,
  type Database,
  type RateLimitCounters,
  type UnitOfWork,
} from '@whistle/service-kit';
import type { IncidentSessionPrincipal, IncidentSessionVerifier } from '@whistle/tokens';
import { findFile, openFile } from '../../domain/download-file.use-case';
import { MAX_FILE_SIZE_MESSAGE, uploadFile } from '../../domain/upload/upload-file.use-case';
import { limitMessages, type UploadLimits } from '../../domain/upload/upload-limits';
import { MAX_UPLOAD_BODY_BYTES, uploadBodyReader } from './upload-body';
import { uploadsInFlight } from './uploads-in-flight';

export interface FileRoutesDependencies {
  db: Database;
  objects: ObjectStore;
  unitOfWork: UnitOfWork;
  verifier: IncidentSessionVerifier;
  limits: UploadLimits;
  /** Disclosers' uploads per client address per hour (staff share their company's address: not counted). */
  uploadsPerClientPerHour: number;
  /** Where that limit counts: shared by the replicas in a cluster. */
  rateLimits: RateLimitCounters;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Headers carrying what the browser needs to decrypt a downloaded file (both are ciphertexts). */
export const ENCRYPTED_KEY_HEADER = 'X-Whistle-Encrypted-Key';
export const ENCRYPTED_FILE_NAME_HEADER = 'X-Whistle-Encrypted-File-Name';

export function fileRoutes(deps: FileRoutesDependencies): Router {
  const router = Router();
  /**
   * Verifies the caller's incident session token — a discloser's, or a staff member's file token that the incident
   * service handed out after checking their access to the case; either opens that one incident's files only — then
   * runs `work` in its company's tenant scope: the database's second wall holds if a query forgets its company.
   */
  const asCaller = async <T>(req: Request, work: (session: IncidentSessionPrincipal) => Promise<T>): Promise<T> => {
    const session = await deps.verifier.verifyRequest(req);
    return asTenant(session.companyId, () => work(session));
  };
  const discloserUploadsPerClient = rateLimit({
    name: 'upload-client',
    counters: deps.rateLimits,
    windowMs: 60 * 60 * 1000,
    limit: deps.uploadsPerClientPerHour,
    message: limitMessages.tooManyUploads,
  });
  /** Counts a verified discloser's upload against their address's limit; rejects with the 429 past it. */
  const countDiscloserUpload = (req: Request, res: Response) =>
    new Promise<void>((resolve, reject) =>
      discloserUploadsPerClient(req, res, (error?: unknown) => (error ? reject(error as Error) : resolve())),
    );

  const takeUploadSlot = uploadsInFlight();

  router.post('/api/incident/file', async (req, res) => {
    try {
      // Checked before reading: the body streams only to a verified caller, and within the limit.
      await asCaller(req, async (session) => {
        if (session.actor.type === 'DISCLOSER') {
          const release = takeUploadSlot(session.incidentId, clientAddress(req));
          // 'close': the answer is sent or the connection is gone, whichever comes first.
          res.once('close', release);
          await countDiscloserUpload(req, res);
        }
        if (!req.is(FILE_UPLOAD_CONTENT_TYPE))
          throw new UnsupportedMediaTypeError(`Send the upload as ${FILE_UPLOAD_CONTENT_TYPE}`);
        if (Number(req.headers['content-length'] ?? 0) > MAX_UPLOAD_BODY_BYTES)
          throw new PayloadTooLargeError(MAX_FILE_SIZE_MESSAGE);
        res.status(201).json(await uploadFile(deps, session, uploadBodyReader(req)));
      });
    } catch (error) {
      // The rest of a refused body is not read: the connection closes after the answer.
      if (!req.complete) res.set('Connection', 'close');
      throw error;
    }
  });

  router.get('/api/incident/file/:file_uuid', async (req, res) => {
    const fileId = String(req.params.file_uuid);
    if (!uuidPattern.test(fileId)) throw new NotFoundError('File not found');
    await asCaller(req, async (session) => {
      if (req.accepts(['application/octet-stream', 'application/json']) === 'application/json') {
        res.json(await findFile(deps.db, session, fileId.toLowerCase()));
        return;
      }
      const { file, ciphertextBytes, content } = await openFile(deps, session, fileId.toLowerCase());
      res.set({
        'Content-Type': 'application/octet-stream',
        'Content-Length': String(ciphertextBytes),
        [ENCRYPTED_KEY_HEADER]: file.encrypted_key,
        [ENCRYPTED_FILE_NAME_HEADER]: file.file_name,
      });
      // A store failure after the first bytes cuts the connection (error middleware): never a short file that looks whole.
      await pipeline(content, res);
    });
  });

  return router;
}
