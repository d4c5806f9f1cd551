import { randomUUID } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import type { CompanyCreateRequest } from '@whistle/contracts';
import { InputError, type UnitOfWork } from '@whistle/service-kit';
import { userRepository } from '../../data-access/user.repository';
import { companyRepository } from '../../data-access/company.repository';
import { categoryRepository } from '../../data-access/category.repository';
import { locationRepository } from '../../data-access/location.repository';
import type { KeyEncryptionKey } from '../secrets/key-encryption';
import { defaultCategories, defaultLocations } from './default-labels';
import { emailDomainOf, isBlockedDomain } from './email-domain-policy';
import { makeUrlIdentifier } from './url-identifier';

/** OWASP's argon2id profile (19 MiB, 2 passes): strong, and cheap enough for a 2-core node. */
export const passwordHashOptions = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export interface CreateCompanyDependencies {
  unitOfWork: UnitOfWork;
  kek: KeyEncryptionKey;
  blockedEmailDomains: readonly string[];
}

/**
 * Onboarding: a company, its first ADMIN, default reporting labels and a location, all in one
 * transaction with the outbox events — a failure anywhere leaves no partial company behind.
 */
export async function createCompany(
  deps: CreateCompanyDependencies,
  input: CompanyCreateRequest,
): Promise<{ url_identifier: string }> {
  const email = input.user_profile.email.toLowerCase();
  const emailDomain = emailDomainOf(email);
  if (isBlockedDomain(emailDomain, deps.blockedEmailDomains)) {
    throw new InputError(
      'Bad Request',
      { 'user_profile.email': ['Your email address is not approved for a Whistleblowing account'] },
      { invalid: true },
    );
  }
  const passwordHash = await hash(input.user_profile.password, passwordHashOptions);
  const companyId = randomUUID();
  const adminId = randomUUID();

  try {
    return await deps.unitOfWork(async (tx) => {
      if (await companyRepository.domainTaken(tx, emailDomain)) throw domainExists();
      let urlIdentifier = makeUrlIdentifier(input.name);
      while (await companyRepository.urlIdentifierTaken(tx, urlIdentifier))
        urlIdentifier = makeUrlIdentifier(input.name);

      await companyRepository.insert(tx, {
        id: companyId,
        urlIdentifier,
        name: input.name,
        country: input.country,
        emailDomain,
        publicKey: input.credential.public_key,
        aesEncryptedPrivateKey: input.credential.aes_encrypted_private_key,
        wrappedPassphrase: deps.kek.wrap(input.passphrase, companyId),
      });
      await userRepository.insert(tx, {
        id: adminId,
        companyId,
        email,
        fullName: input.user_profile.full_name,
        passwordHash,
        roles: ['ADMIN'],
      });

      const categories: Array<{ uuid: string; name: string; parent_uuid: string | null; is_active: boolean }> = [];
      for (const [position, top] of defaultCategories.entries()) {
        const parentId = randomUUID();
        await categoryRepository.insert(tx, {
          id: parentId,
          companyId,
          parentId: null,
          name: top.name,
          position,
        });
        categories.push({ uuid: parentId, name: top.name, parent_uuid: null, is_active: true });
        for (const [childPosition, child] of top.children.entries()) {
          const childId = randomUUID();
          await categoryRepository.insert(tx, {
            id: childId,
            companyId,
            parentId,
            name: child,
            position: childPosition,
          });
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
        company_id: companyId,
        payload: {
          company_id: companyId,
          url_identifier: urlIdentifier,
          name: input.name,
          country: input.country,
          created_by: { user_id: adminId, email },
          categories,
          locations,
        },
        actor: { type: 'STAFF', user_id: adminId },
      });
      await tx.addEvent({
        name: 'user.created',
        company_id: companyId,
        payload: { user_id: adminId, email, full_name: input.user_profile.full_name, roles: ['ADMIN'] },
        actor: { type: 'STAFF', user_id: adminId },
      });
      return { url_identifier: urlIdentifier };
    });
  } catch (error) {
    // Two sign-ups from one domain at the same moment: the unique index decides, the loser is told it exists.
    if (isUniqueViolation(error, 'company_email_domain_key') || isUniqueViolation(error, 'user_profile_email_key'))
      throw domainExists();
    throw error;
  }
}

function domainExists(): InputError {
  return new InputError(
    'Bad Request',
    { 'user_profile.email': ['An account using this email domain already exists'] },
    { exists: true },
  );
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  const pgError = error as { code?: string; constraint?: string; message?: string };
  return (
    pgError?.code === '23505' && (pgError.constraint === constraint || Boolean(pgError.message?.includes(constraint)))
  );
}
