import { randomUUID } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import {
  FILE_CIPHERTEXT_OVERHEAD,
  MAX_FILE_SIZE,
  fileUploadMetadataSchema,
  type IncidentFile,
} from '@whistle/contracts';
import {
  InputError,
  NotAllowedError,
  PayloadTooLargeError,
  parseBody,
  type Database,
  type DiscloserPrincipal,
  type ObjectStore,
  type Outbox,
} from '@whistle/service-kit';
import { fileRepository, type FileRow } from '../../data-access/file.repository';
import { MAX_FILE_SIZE_MESSAGE, parseUploadBody } from './upload-body';

export interface UploadFileDependencies {
  db: Database;
  objects: ObjectStore;
  outbox: Outbox;
}

/** Version byte of @whistle/crypto's file format: the first byte of every ciphertext it makes. */
const FILE_FORMAT_VERSION = 1;
const MAX_CIPHERTEXT_BYTES = MAX_FILE_SIZE + FILE_CIPHERTEXT_OVERHEAD;
/** Room for the other fields of the JSON document besides the base64 content. */
const METADATA_ALLOWANCE = 64 * 1024;
/** The longest upload body: base64 of the largest ciphertext, plus metadata. */
export const MAX_UPLOAD_BODY_BYTES = Math.ceil(MAX_CIPHERTEXT_BYTES / 3) * 4 + METADATA_ALLOWANCE;

export function objectKeyOf(file: { company_id: string; incident_id: string; id: string }): string {
  return `company/${file.company_id}/incident/${file.incident_id}/file/${file.id}`;
}

export function toIncidentFile(row: FileRow): IncidentFile {
  return {
    uuid: row.id,
    incident_uuid: row.incident_id,
    incident_message_uuid: row.incident_message_id,
    file_name: row.file_name,
    encrypted_key: row.encrypted_key,
    file_size: Number(row.file_size),
    mime_type: row.mime_type,
    created: row.created_at.toISOString(),
  };
}

/**
 * A discloser's upload: the ciphertext streams into the object store as the body is read; then the
 * metadata is checked, and the row and its event are written in one transaction. Any failure
 * (bad field, wrong size, too large, another incident, database down) removes the object, so
 * nothing is left half-way.
 */
export async function uploadFile(
  deps: UploadFileDependencies,
  discloser: DiscloserPrincipal,
  body: Readable,
): Promise<IncidentFile> {
  const id = randomUUID();
  const objectKey = objectKeyOf({ company_id: discloser.companyId, incident_id: discloser.incidentId, id });
  let content: PassThrough | undefined;
  let stored: Promise<void> | undefined;
  try {
    const parsed = await parseUploadBody(
      body,
      () => {
        const sink = new PassThrough();
        const putting = deps.objects.put(objectKey, sink, { contentType: 'application/octet-stream' });
        // A failing store must end the wait for 'drain' instead of leaving the upload hanging.
        putting.catch((error: Error) => sink.destroy(error));
        content = sink;
        stored = putting;
        return sink;
      },
      { maxBodyBytes: MAX_UPLOAD_BODY_BYTES, maxContentBytes: MAX_CIPHERTEXT_BYTES },
    );
    const declaredSize = parsed.fields.file_size;
    if (typeof declaredSize === 'number' && declaredSize > MAX_FILE_SIZE)
      throw new PayloadTooLargeError(MAX_FILE_SIZE_MESSAGE);
    const metadata = parseBody(fileUploadMetadataSchema, parsed.fields);
    if (!parsed.hadContent) throw new InputError('Invalid request body', { content: ['This field is required'] });
    if (metadata.incident_uuid.toLowerCase() !== discloser.incidentId)
      throw new NotAllowedError('This session is for another incident');
    if (
      parsed.contentBytes !== metadata.file_size + FILE_CIPHERTEXT_OVERHEAD ||
      parsed.firstContentByte !== FILE_FORMAT_VERSION
    ) {
      throw new InputError('Invalid request body', {
        content: ['Invalid file content: not an encrypted file of file_size bytes'],
      });
    }
    await stored;

    const row = await deps.db.transaction(async (tx) => {
      const inserted = await fileRepository.insert(tx, {
        id,
        company_id: discloser.companyId,
        incident_id: discloser.incidentId,
        incident_message_id: metadata.incident_message_uuid?.toLowerCase() ?? null,
        object_key: objectKey,
        file_name: metadata.file_name,
        encrypted_key: metadata.encrypted_key,
        file_size: metadata.file_size,
        mime_type: metadata.mime_type,
      });
      await deps.outbox.add(tx, {
        name: 'incident.file.created',
        company_id: discloser.companyId,
        payload: {
          incident_id: discloser.incidentId,
          incident_file_id: id,
          incident_message_id: inserted.incident_message_id,
          file_size: metadata.file_size,
          mime_type: metadata.mime_type,
        },
      });
      return inserted;
    });
    return toIncidentFile(row);
  } catch (error) {
    if (stored) {
      content?.destroy();
      await stored.catch(() => undefined);
      await deps.objects.delete(objectKey);
    }
    throw error;
  }
}
