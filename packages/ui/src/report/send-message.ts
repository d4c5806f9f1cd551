import type { ApiClient } from '@whistle/api-client';
import { encryptContent, type IncidentHandle } from '@whistle/crypto';
import {
  uploadAttachment,
  uploadFailureKey,
  type Attachment,
  type FileSigner,
  type UploadFailureKey,
} from './attachment';

/** A message as the server answered its posting: staff replies carry the id of the key that signed them. */
export interface PostedMessage {
  uuid: string;
  signature?: { signer_key_id: string } | null;
}

/** Where a message goes and how: the same for the reporter and for staff, but for the call that posts it. */
export interface MessageChannel {
  /** The incident's key the text and the files are encrypted to. */
  handle: Pick<IncidentHandle, 'publicKey'>;
  /** The side that sends: bound into the ciphertext, so the text cannot be shown as the other side's. */
  from: 'discloser' | 'staff';
  incidentUuid: string;
  /** Uploads the files: the discloser's session, or the case's file token. */
  filesApi: ApiClient;
  /** Posts the encrypted text (the discloser's endpoint or the staff's) and answers the new message. */
  post(content: string): Promise<PostedMessage>;
  /** Staff: the signer of the message's files for the discloser's page (none: they go unsigned). */
  fileSigner?(message: PostedMessage): FileSigner | undefined;
  /** An upload failure that ends the sending (the discloser's session ended) rather than leaving a file out. */
  endsSending?(error: unknown): boolean;
}

export interface OutgoingMessage {
  text: string;
  files: readonly Attachment[];
  onProgress(fileId: string, fraction: number): void;
  /** An upload the server could not take now (503, 408) is sent again in `seconds`. */
  onRetry?(fileId: string, seconds: number): void;
}

/**
 * Encrypts the text to the incident key, bound as a message of the sending side, and sends it, then each file, encrypted too. The message is sent once
 * posted: a file refused afterwards (a limit, too many files) stops the uploads and says why (`refusedFile`, a
 * `common` key) instead of failing the message.
 */
export async function sendEncryptedMessage(
  channel: MessageChannel,
  { text, files, onProgress, onRetry }: OutgoingMessage,
): Promise<{ refusedFile?: UploadFailureKey }> {
  const content = await encryptContent(channel.handle.publicKey, text, { kind: 'message', from: channel.from });
  const message = await channel.post(content);
  const sign = channel.fileSigner?.(message);
  for (const file of files) {
    try {
      await uploadAttachment(
        channel.filesApi,
        channel.handle,
        channel.incidentUuid,
        message.uuid,
        file,
        (fraction) => onProgress(file.id, fraction),
        (seconds) => onRetry?.(file.id, seconds),
        sign,
      );
    } catch (error) {
      if (channel.endsSending?.(error)) throw error;
      return { refusedFile: uploadFailureKey(error) };
    }
  }
  return {};
}
