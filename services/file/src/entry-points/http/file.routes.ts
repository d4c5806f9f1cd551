import { pipeline } from 'node:stream/promises';
import { Router, type Request } from 'express';
import { FILE_UPLOAD_CONTENT_TYPE } from '@whistle/contracts';
import type { ObjectStore } from '@whistle/object-store';
import {
  NotFoundError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  type Database,
  type UnitOfWork,
} from '@whistle/service-kit';
import type { DiscloserPrincipal, DiscloserTokenVerifier } from '@whistle/tokens';
import { findFile, openFile } from '../../domain/download-file.use-case';
import { MAX_FILE_SIZE_MESSAGE, uploadFile } from '../../domain/upload/upload-file.use-case';
import { MAX_UPLOAD_BODY_BYTES, uploadBodyReader } from './upload-body';

export interface FileRoutesDependencies {
  db: Database;
  objects: ObjectStore;
  unitOfWork: UnitOfWork;
  verifier: DiscloserTokenVerifier;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Headers carrying what the browser needs to decrypt a downloaded file (both are ciphertexts). */
export const ENCRYPTED_KEY_HEADER = 'X-Whistle-Encrypted-Key';
export const ENCRYPTED_FILE_NAME_HEADER = 'X-Whistle-Encrypted-File-Name';

export function fileRoutes(deps: FileRoutesDependencies): Router {
  const router = Router();
  // Discloser session tokens only for now; staff sign-in adds its verifier here, scoped the same way
  // (company and incident of the token), and the use cases stay as they are.
  const callerOf = (req: Request): Promise<DiscloserPrincipal> => deps.verifier.verifyRequest(req);

  router.post('/api/incident/file', async (req, res) => {
    try {
      // Checked before reading: the body streams only to a verified caller, and within the limit.
      const discloser = await callerOf(req);
      if (!req.is(FILE_UPLOAD_CONTENT_TYPE))
        throw new UnsupportedMediaTypeError(`Send the upload as ${FILE_UPLOAD_CONTENT_TYPE}`);
      if (Number(req.headers['content-length'] ?? 0) > MAX_UPLOAD_BODY_BYTES)
        throw new PayloadTooLargeError(MAX_FILE_SIZE_MESSAGE);
      res.status(201).json(await uploadFile(deps, discloser, uploadBodyReader(req)));
    } catch (error) {
      // The rest of a refused body is not read: the connection closes after the answer.
      if (!req.complete) res.set('Connection', 'close');
      throw error;
    }
  });

  router.get('/api/incident/file/:file_uuid', async (req, res) => {
    const fileId = String(req.params.file_uuid);
    if (!uuidPattern.test(fileId)) throw new NotFoundError('File not found');
    const discloser = await callerOf(req);
    if (req.accepts(['application/octet-stream', 'application/json']) === 'application/json') {
      res.json(await findFile(deps.db, discloser, fileId.toLowerCase()));
      return;
    }
    const { file, ciphertextBytes, content } = await openFile(deps, discloser, fileId.toLowerCase());
    res.set({
      'Content-Type': 'application/octet-stream',
      'Content-Length': String(ciphertextBytes),
      [ENCRYPTED_KEY_HEADER]: file.encrypted_key,
      [ENCRYPTED_FILE_NAME_HEADER]: file.file_name,
    });
    // A store failure after the first bytes cuts the connection (error middleware): never a short file that looks whole.
    await pipeline(content, res);
  });

  return router;
}
