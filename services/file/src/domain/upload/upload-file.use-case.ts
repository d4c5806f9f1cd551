import { randomUUID } from 'node:crypto';
import type { Transform, Writable } from 'node:stream';
import {
  MAX_CIPHERTEXT_BYTES,
  MAX_FILE_SIZE,
  encryptedFileBytes,
  fileUploadMetadataSchema,
  type IncidentFile,
} from '@whistle/contracts';
import type { ObjectStore } from '@whistle/object-store';
import {
  InputError,
  NotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  ServiceUnavailableError,
  parseBody,
  type Queryable,
  type UnitOfWork,
} from '@whistle/service-kit';
import type { IncidentSessionPrincipal } from '@whistle/tokens';
import { fileRepository } from '../../data-access/file.repository';
import { eventActorOf, objectKeyOf, toIncidentFile } from '../incident-file';
import { digestingSink, digestMismatch, signatureOfUpload } from './staff-file-signature';
import { assertRoom, awaitMessageOfIncident, type UploadLimits } from './upload-limits';

export interface UploadFileDependencies {
  db: Queryable;
  objects: ObjectStore;
  unitOfWork: UnitOfWork;
  limits: UploadLimits;
}

export const MAX_FILE_SIZE_MESSAGE = 'Max file size is 25MB';
/** The largest ciphertext: the largest file, padded and encrypted. */
export { MAX_CIPHERTEXT_BYTES };

/** An upload as its reader received it: the ciphertext went to the sink it was given, the rest is here. */
export interface ReceivedUpload {
  /** Every field but the content, as sent (validated here). */
  fields: Record<string, unknown>;
  /** Whether content was present (its bytes went to the sink). */
  hadContent: boolean;
  contentBytes: number;
  firstContentByte: number | undefined;
}

/**
 * Reads an upload in its wire format (the entry point's business): writes the ciphertext, as it
 * arrives, to the sink `openContent` returns, refusing more than `maxContentBytes` of it.
 */
export type UploadReader = (openContent: () => Writable, maxContentBytes: number) => Promise<ReceivedUpload>;

/**
 * The ciphertext's size for each version byte of @whistle/crypto's file format: 2 (padded to a Padmé size) as
 * browsers now send; 1 (unpadded) still taken, so a page loaded before the upgrade loses no file.
 */
function expectedCiphertextBytes(version: number | undefined, fileSize: number): number | undefined {
  return version === 1 || version === 2 ? encryptedFileBytes(fileSize, version) : undefined;
}

/**
 * An upload by a discloser or a staff member (incident session token): the ciphertext streams into the
 * object store as `readUpload` reads it; then the metadata is checked, and the row and its event are
 * written in one transaction. Any failure
 * (bad field, wrong size, too large, another incident, database down) removes the object, so
 * nothing is left half-way. A case full already (files, bytes, a discloser's uploads per hour) refuses
 * before the body is read; the transaction checks again with the file's size and message, under the case's
 * lock. A named message must be one of the case's, as the incident service announced it. A staff file's signature
 * is kept only if its digest is the SHA-256 of the bytes stored.
 */
export async function uploadFile(
  deps: UploadFileDependencies,
  session: IncidentSessionPrincipal,
  readUpload: UploadReader,
): Promise<IncidentFile> {
  const scope = { companyId: session.companyId, incidentId: session.incidentId };
  assertRoom(deps.limits, session, await fileRepository.usage(deps.db, scope, null), {
    fileSize: 0,
    messageKnown: false,
  });
  const id = randomUUID();
  const objectKey = objectKeyOf({ company_id: session.companyId, incident_id: session.incidentId, id });
  let content: Transform | undefined;
  let stored: Promise<void> | undefined;
  let contentDigest: (() => string) | undefined;
  try {
    const parsed = await readUpload(() => {
      const { sink, digest } = digestingSink();
      contentDigest = digest;
      const putting = deps.objects.put(objectKey, sink, { contentType: 'application/octet-stream' });
      // A failing store must end the wait for 'drain' instead of leaving the upload hanging.
      putting.catch((error: Error) => sink.destroy(error));
      content = sink;
      stored = putting;
      return sink;
    }, MAX_CIPHERTEXT_BYTES);
    const declaredSize = parsed.fields.file_size;
    if (typeof declaredSize === 'number' && declaredSize > MAX_FILE_SIZE)
      throw new PayloadTooLargeError(MAX_FILE_SIZE_MESSAGE);
    const metadata = parseBody(fileUploadMetadataSchema, parsed.fields);
    const signature = signatureOfUpload(session, metadata);
    if (!parsed.hadContent) throw new InputError('Invalid request body', { content: ['This field is required'] });
    if (metadata.incident_uuid.toLowerCase() !== session.incidentId)
      throw new NotAllowedError('This session is for another incident');
    if (parsed.contentBytes !== expectedCiphertextBytes(parsed.firstContentByte, metadata.file_size)) {
      throw new InputError('Invalid request body', {
        content: ['Invalid file content: not an encrypted file of file_size bytes'],
      });
    }
    const messageId = metadata.incident_message_uuid?.toLowerCase() ?? null;
    if (messageId) await awaitMessageOfIncident(deps.db, scope, messageId, deps.limits.messageWaitMs);
    await stored;
    // Stored whole: the digest is of every byte the store took.
    if (signature && contentDigest?.() !== signature.content_digest) throw digestMismatch();

    const row = await deps.unitOfWork(async (tx) => {
      await fileRepository.lockIncident(tx, session.incidentId);
      // A case deleted for good (retention) while its session token still runs takes no new file.
      if (await fileRepository.isIncidentDeleted(tx, session.incidentId)) throw new NotFoundError('Incident not found');
      assertRoom(deps.limits, session, await fileRepository.usage(tx, scope, messageId), {
        fileSize: metadata.file_size,
        messageKnown: true,
      });
      const inserted = await fileRepository.insert(tx, {
        id,
        company_id: session.companyId,
        incident_id: session.incidentId,
        incident_message_id: messageId,
        object_key: objectKey,
        file_name: metadata.file_name,
        encrypted_key: metadata.encrypted_key,
        file_size: metadata.file_size,
        mime_type: metadata.mime_type,
        uploader: session.actor.type,
        signer_key_id: signature?.signer_key_id ?? null,
        signature_nonce: signature?.signature_nonce ?? null,
        signature: signature?.signature ?? null,
        content_digest: signature?.content_digest ?? null,
      });
      await tx.addEvent({
        name: 'incident.file.created',
        company_id: session.companyId,
        payload: {
          incident_id: session.incidentId,
          incident_file_id: id,
          incident_message_id: inserted.incident_message_id,
          file_size: metadata.file_size,
          mime_type: metadata.mime_type,
        },
        actor: eventActorOf(session),
      });
      return inserted;
    });
    return toIncidentFile(row);
  } catch (error) {
    if (!stored) throw error;
    content?.destroy();
    const storeFailure = await stored.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    // With the store down the delete fails too; a put that failed left nothing to delete (disk: its temporary
    // file is gone; S3: the multipart upload is aborted, or removed by the bucket's lifecycle rule).
    await deps.objects.delete(objectKey).catch(() => undefined);
    // The store failing is the cause (503, try again), not what the body reader saw of it.
    throw storeFailure instanceof ServiceUnavailableError ? storeFailure : error;
  }
}
