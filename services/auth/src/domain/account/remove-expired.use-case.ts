import type { Queryable } from '@whistle/service-kit';
import { companyRegistrationRepository } from '../../data-access/company-registration.repository';
import { oneTimeSecretRepository } from '../../data-access/one-time-secret.repository';
import { ssoRepository } from '../../data-access/sso.repository';
import { tokenRevocations } from './token-revocations';

/**
 * Housekeeping, hourly: one-time secrets, revoked token ids, SAML requests and unconfirmed company registrations
 * that can no longer matter.
 */
export async function removeExpired(db: Queryable): Promise<void> {
  await oneTimeSecretRepository.deleteExpired(db);
  await tokenRevocations.removeExpired(db);
  await ssoRepository.deleteExpiredRequests(db);
  await companyRegistrationRepository.deleteExpired(db);
}
