import type { Queryable } from '@whistle/service-kit';
import { oneTimeSecretRepository } from '../../data-access/one-time-secret.repository';
import { sessionRepository } from '../../data-access/session.repository';
import { ssoRepository } from '../../data-access/sso.repository';

/** Housekeeping, hourly: one-time secrets, revoked token ids and SAML requests that can no longer matter. */
export async function removeExpired(db: Queryable): Promise<void> {
  await oneTimeSecretRepository.deleteExpired(db);
  await sessionRepository.deleteExpired(db);
  await ssoRepository.deleteExpiredRequests(db);
}
