import { randomUUID } from 'node:crypto';
import type { Transaction } from '@whistle/service-kit';
import { categoryRepository } from '../../data-access/category.repository';
import { companyRepository } from '../../data-access/company.repository';
import type { CompanyRegistrationRow } from '../../data-access/company-registration.repository';
import { locationRepository } from '../../data-access/location.repository';
import { userRepository } from '../../data-access/user.repository';
import { companyKeyRepository } from '../../data-access/company-key.repository';
import { currentPersonKey, putPersonKeys } from '../keys/person-keys';
import { defaultCategories, defaultLocations } from './default-labels';

/**
 * A confirmed registration becomes the company: the company, its first ADMIN, default reporting labels and
 * locations, the keys the onboarding page made, and the events that make it exist for the other services
 * (company.created, user.created, user.keys_created, company.key_granted), in the caller's transaction — a failure anywhere leaves no partial company behind.
 */
export async function activateCompany(tx: Transaction, registration: CompanyRegistrationRow): Promise<void> {
  const companyId = registration.id;
  const adminId = randomUUID();
  const email = registration.email;
  await companyRepository.insert(tx, {
    id: companyId,
    urlIdentifier: registration.url_identifier,
    name: registration.name,
    country: registration.country,
    emailDomain: registration.email_domain,
    publicKey: registration.public_key,
  });
  await userRepository.insert(tx, {
    id: adminId,
    companyId,
    email,
    fullName: registration.full_name,
    // Registrations stored before the kdf was (null): made by a page that knew only argon2id-v1.
    password: {
      hash: registration.password_hash,
      kdfSalt: registration.kdf_salt,
      kdf: registration.kdf ?? 'argon2id-v1',
    },
    roles: ['ADMIN'],
    language: registration.language,
  });

  const categories: Array<{ uuid: string; name: string; parent_uuid: string | null; is_active: boolean }> = [];
  for (const [position, top] of defaultCategories.entries()) {
    const parentId = randomUUID();
    await categoryRepository.insert(tx, { id: parentId, companyId, parentId: null, name: top.name, position });
    categories.push({ uuid: parentId, name: top.name, parent_uuid: null, is_active: true });
    for (const [childPosition, child] of top.children.entries()) {
      const childId = randomUUID();
      await categoryRepository.insert(tx, { id: childId, companyId, parentId, name: child, position: childPosition });
      categories.push({ uuid: childId, name: child, parent_uuid: parentId, is_active: true });
    }
  }
  const locations = [];
  for (const [position, name] of defaultLocations.entries()) {
    const id = randomUUID();
    await locationRepository.insert(tx, { id, companyId, name, position });
    locations.push({ uuid: id, name, is_active: true });
  }

  await tx.addEvent({
    name: 'company.created',
    version: 2,
    company_id: companyId,
    payload: {
      company_id: companyId,
      url_identifier: registration.url_identifier,
      name: registration.name,
      country: registration.country,
      created_by: { user_id: adminId, email, language: registration.language },
      categories,
      locations,
    },
    actor: { type: 'STAFF', user_id: adminId },
  });
  await tx.addEvent({
    name: 'user.created',
    version: 2,
    company_id: companyId,
    payload: {
      user_id: adminId,
      email,
      full_name: registration.full_name,
      roles: ['ADMIN'],
      language: registration.language,
    },
    actor: { type: 'STAFF', user_id: adminId },
  });
  await holdCompanyKey(tx, companyId, adminId, registration);
}

/**
 * The keys the onboarding page made: the admin's (sealed under their password), the company key as version 1 (its
 * recovery kit's copy), and the admin's grant of it — the only ways it opens.
 */
async function holdCompanyKey(
  tx: Transaction,
  companyId: string,
  adminId: string,
  registration: CompanyRegistrationRow,
): Promise<void> {
  await putPersonKeys(tx, { companyId, userId: adminId }, registration.admin_keys);
  await companyKeyRepository.insertKey(tx, companyId, {
    version: 1,
    publicKey: registration.public_key,
    recoverySealed: registration.aes_encrypted_private_key,
  });
  const admin = (await currentPersonKey(tx, companyId, adminId))!;
  await companyKeyRepository.grant(tx, companyId, {
    key_version: 1,
    user_id: adminId,
    key_id: admin.key_id,
    wrapped_private_key: registration.admin_grant,
    grantedBy: adminId,
    reason: 'onboarding',
  });
  await tx.addEvent({
    name: 'company.key_granted',
    company_id: companyId,
    payload: { user_id: adminId, key_version: 1, fingerprint: admin.fingerprint, reason: 'onboarding' },
    actor: { type: 'STAFF', user_id: adminId },
  });
}
