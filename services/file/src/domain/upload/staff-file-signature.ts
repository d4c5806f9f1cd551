import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import { FILE_SIGNATURE_FIELDS, type FileUploadMetadata } from '@whistle/contracts';
import { InputError } from '@whistle/service-kit';
import type { IncidentSessionPrincipal } from '@whistle/tokens';

/** A staff file's signature as stored (docs/security.md, "Signed staff messages"). */
export interface StoredFileSignature {
  signer_key_id: string;
  signature_nonce: string;
  signature: string;
  content_digest: string;
}

/**
 * The signature an upload carries, as far as the server can vouch for it: all four fields or none, and only from
 * staff (a discloser's file is theirs, not the team's). Whether it verifies is for the discloser's browser, which
 * alone knows the team keys it trusts; the digest is checked against the bytes (`digestMismatch`).
 */
export function signatureOfUpload(
  session: IncidentSessionPrincipal,
  metadata: FileUploadMetadata,
): StoredFileSignature | null {
  const given = FILE_SIGNATURE_FIELDS.filter((field) => metadata[field] !== undefined);
  if (given.length === 0) return null;
  if (session.actor.type !== 'STAFF')
    throw new InputError('Invalid request body', { signature: ['Only files sent by the case team are signed'] });
  const missing = FILE_SIGNATURE_FIELDS.filter((field) => metadata[field] === undefined);
  if (missing.length > 0)
    throw new InputError(
      'Invalid request body',
      Object.fromEntries(missing.map((field) => [field, ['Required with a signature']])),
    );
  return {
    signer_key_id: metadata.signer_key_id!.toLowerCase(),
    signature_nonce: metadata.signature_nonce!,
    signature: metadata.signature!,
    content_digest: metadata.content_digest!,
  };
}

/** A pass-through that takes the SHA-256 of what streams to the object store, to compare with the signed digest. */
export function digestingSink(): { sink: Transform; digest(): string } {
  const hash = createHash('sha256');
  const sink = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  return { sink, digest: () => hash.digest('base64url') };
}

export const digestMismatch = () =>
  new InputError('Invalid request body', {
    content_digest: ['Does not match the uploaded content'],
  });
