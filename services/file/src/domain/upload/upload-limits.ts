import { setTimeout as sleep } from 'node:timers/promises';
import { ConflictError, InputError, TooManyRequestsError, type Queryable } from '@whistle/service-kit';
import type { IncidentSessionPrincipal } from '@whistle/tokens';
import { fileRepository, type IncidentUsage } from '../../data-access/file.repository';

/** How much one case takes (the service's configuration; numbers and reasons in docs/security.md). */
export interface UploadLimits {
  filesPerMessage: number;
  filesPerIncident: number;
  bytesPerIncident: number;
  /** A case's discloser's uploads per hour. */
  discloserUploadsPerIncidentPerHour: number;
  /** How long an upload waits for the message it names to be announced. */
  messageWaitMs: number;
}

const HOUR_SECONDS = 3600;
const megabytes = (bytes: number) => `${bytes / 1_000_000} MB`;

export const limitMessages = {
  filesPerMessage: (max: number) => `A message takes at most ${max} files`,
  filesPerIncident: (max: number) => `A case takes at most ${max} files`,
  bytesPerIncident: (max: number) => `The files of a case take at most ${megabytes(max)}`,
  tooManyUploads: 'Too many files were sent, please try again later',
  unknownMessage: 'No such message in this case',
} as const;

/**
 * Refuses an upload the case has no room for: 409 past a cap on files or bytes, 429 past the discloser's
 * uploads per hour. `fileSize` and `messageId` are unknown before the body is read: then only what is
 * already full is refused, so a hopeless upload is refused before its bytes are sent.
 */
export function assertRoom(
  limits: UploadLimits,
  session: IncidentSessionPrincipal,
  usage: IncidentUsage,
  upload: { fileSize: number; messageKnown: boolean },
): void {
  if (session.actor.type === 'DISCLOSER' && usage.discloserUploadsLastHour >= limits.discloserUploadsPerIncidentPerHour)
    throw new TooManyRequestsError(limitMessages.tooManyUploads, HOUR_SECONDS);
  if (usage.incidentFiles >= limits.filesPerIncident)
    throw new ConflictError(limitMessages.filesPerIncident(limits.filesPerIncident));
  if (usage.incidentBytes + upload.fileSize > limits.bytesPerIncident || usage.incidentBytes >= limits.bytesPerIncident)
    throw new ConflictError(limitMessages.bytesPerIncident(limits.bytesPerIncident));
  if (upload.messageKnown && usage.messageFiles >= limits.filesPerMessage)
    throw new ConflictError(limitMessages.filesPerMessage(limits.filesPerMessage));
}

/**
 * Waits until the message is known as one of the case's: the browser uploads a message's files right after
 * the incident service accepted it, and its `incident.message.created` takes a moment (outbox, broker) to
 * arrive here. A message of another case or company, or none at all, is still unknown at the end: 400.
 */
export async function awaitMessageOfIncident(
  db: Queryable,
  scope: { companyId: string; incidentId: string },
  messageId: string,
  waitMs: number,
): Promise<void> {
  const deadline = Date.now() + waitMs;
  let pause = 25;
  while (!(await fileRepository.isMessageOf(db, scope, messageId))) {
    const left = deadline - Date.now();
    if (left <= 0)
      throw new InputError('Invalid request body', { incident_message_uuid: [limitMessages.unknownMessage] });
    await sleep(Math.min(pause, left));
    pause = Math.min(pause * 2, 500);
  }
}
