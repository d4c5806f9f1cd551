import type { IncidentFile } from '@whistle/contracts';
import type { IncidentSessionPrincipal } from '@whistle/tokens';
import type { FileRow } from '../data-access/file.repository';

/** Where a file's ciphertext lives in the object store: under its company and incident. */
export function objectKeyOf(file: { company_id: string; incident_id: string; id: string }): string {
  return `company/${file.company_id}/incident/${file.incident_id}/file/${file.id}`;
}

/** A stored file as the API shows it: metadata and the browser's ciphertexts of its name and key. */
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
    content_digest: row.content_digest,
    signature:
      row.signer_key_id && row.signature_nonce && row.signature
        ? { signer_key_id: row.signer_key_id, nonce: row.signature_nonce, signature: row.signature }
        : null,
  };
}

/** The event actor of whoever a session token lets act. */
export const eventActorOf = (session: IncidentSessionPrincipal) =>
  session.actor.type === 'STAFF'
    ? ({ type: 'STAFF', user_id: session.actor.userId } as const)
    : ({ type: 'DISCLOSER' } as const);
