import { randomUUID } from 'node:crypto';
import {
  teamRole,
  type CompanyKeyGrantRequest,
  type CompanyKeysResponse,
  type TeamKeysResponse,
} from '@whistle/contracts';
import { companyFingerprint } from '@whistle/crypto';
import { ConflictError, NotFoundError } from '@whistle/service-kit';
import type { StaffPrincipal } from '@whistle/tokens';
import { companyKeyRepository, type CompanyKeyRow } from '../../data-access/company-key.repository';
import { keyEndorsementRepository } from '../../data-access/key-endorsement.repository';
import { personKeyRepository } from '../../data-access/person-key.repository';
import { userRepository } from '../../data-access/user.repository';
import type { KeyEncryptionKey } from '../secrets/key-encryption';
import { recordGrant, requireHolder, staffActor } from './company-key-grants';
import { ACCESS_REQUEST_LIFETIME_MS, type KeyDependencies } from './key-dependencies';

const isAdmin = (principal: StaffPrincipal) => principal.roles.includes('ADMIN');

/**
 * GET /api/account/company/keys: the company key as the caller may hold it. Everyone sees the public key and their own
 * wrapping (if any); an admin also the recovery kit's copy. For a company from before, what opens the key the old
 * way goes to the team until an admin's browser moves the key (as the KEK-wrapped passphrase went before).
 */
export async function companyKeys(
  deps: KeyDependencies & { kek: KeyEncryptionKey },
  principal: StaffPrincipal,
): Promise<CompanyKeysResponse> {
  const [keys, grants, request, legacy] = await Promise.all([
    companyKeyRepository.keys(deps.db, principal.companyId),
    companyKeyRepository.grantsOf(deps.db, principal.companyId, principal.userId),
    companyKeyRepository.request(deps.db, principal.companyId, principal.userId),
    companyKeyRepository.legacy(deps.db, principal.companyId),
  ]);
  const [current, previous] = keys;
  if (!current) throw new NotFoundError('Company not found');
  const grantOf = (key: CompanyKeyRow | undefined) =>
    grants.find((grant) => grant.key_version === key?.version)?.wrapped_private_key ?? null;
  return {
    key_version: current.version,
    public_key: current.public_key,
    grant: grantOf(current),
    recovery:
      isAdmin(principal) && current.recovery_sealed_private_key
        ? { aes_encrypted_private_key: current.recovery_sealed_private_key }
        : null,
    legacy: legacy
      ? {
          aes_encrypted_private_key: legacy.aes_encrypted_private_key,
          passphrase: deps.kek.unwrap(legacy.wrapped_passphrase, principal.companyId),
        }
      : null,
    access_request: request ? { id: request.id, expires_at: request.expires_at.toISOString() } : null,
    rotation:
      previous?.state === 'previous'
        ? {
            previous_key_version: previous.version,
            previous_public_key: previous.public_key,
            previous_grant: grantOf(previous),
            started_at: current.created_at.toISOString(),
            started_by: current.created_by,
          }
        : null,
  };
}

/**
 * GET /api/account/company/keys/people: everyone's public keys and fingerprints, who holds the company key, and whose
 * current key an admin endorsed in their current role.
 */
export async function teamKeys(deps: KeyDependencies, principal: StaffPrincipal): Promise<TeamKeysResponse> {
  const [people, keys, requests, endorsements] = await Promise.all([
    personKeyRepository.team(deps.db, principal.companyId),
    companyKeyRepository.keys(deps.db, principal.companyId),
    companyKeyRepository.requests(deps.db, principal.companyId),
    keyEndorsementRepository.ofCompany(deps.db, principal.companyId),
  ]);
  const holders = keys[0]
    ? await companyKeyRepository.holders(deps.db, principal.companyId, keys[0].version)
    : new Set();
  return {
    people: people.map((person) => {
      const request = requests.find((candidate) => candidate.user_id === person.user_id);
      return {
        user_id: person.user_id,
        full_name: person.full_name,
        roles: person.roles,
        key_id: person.key_id,
        public_key: person.public_key,
        signing_public_key: person.signing_public_key,
        fingerprint: person.fingerprint,
        company_key: holders.has(person.user_id) ? 'granted' : 'missing',
        access_request:
          request && request.key_id === person.key_id && person.fingerprint
            ? {
                id: request.id,
                fingerprint: person.fingerprint,
                created: request.created_at.toISOString(),
                expires_at: request.expires_at.toISOString(),
              }
            : null,
        endorsed: endorsements.some(
          (entry) =>
            entry.key_id === person.key_id &&
            entry.signing_public_key === person.signing_public_key &&
            entry.role === teamRole(person.roles),
        ),
      };
    }),
  };
}

/**
 * POST /api/account/company/keys/migration: an admin's browser opened a company key from before (legacy), wrapped it
 * to their own keys and sealed it for a new recovery kit. The server then deletes the old way for good.
 */
export async function migrateCompanyKey(
  deps: KeyDependencies,
  principal: StaffPrincipal,
  input: { grant: string; aes_encrypted_private_key: string },
): Promise<void> {
  await deps.unitOfWork(async (tx) => {
    const [current] = await companyKeyRepository.lockKeys(tx, principal.companyId);
    const person = await personKeyRepository.ofUser(tx, principal.companyId, principal.userId);
    if (!person) throw new ConflictError('Set up your keys first');
    if (!current || !(await companyKeyRepository.dropLegacy(tx, principal.companyId)))
      throw new ConflictError('The company key has already been moved to its admins');
    await companyKeyRepository.setRecovery(tx, principal.companyId, current.version, input.aes_encrypted_private_key);
    const fingerprint = await companyFingerprint(current.public_key);
    await recordGrant(tx, principal, {
      userId: principal.userId,
      keyId: person.key_id,
      version: current.version,
      wrapped: input.grant,
      fingerprint: person.fingerprint,
      reason: 'migration',
    });
    await tx.addEvent({
      name: 'company.keys_migrated',
      company_id: principal.companyId,
      payload: { key_version: current.version, fingerprint },
      actor: staffActor(principal),
    });
  });
}

/**
 * POST /api/account/company/keys/grants: the company key wrapped to a team member — by an admin who compared the
 * fingerprint (approval), or by the person themselves with the recovery kit (recovery). The recipient's key must
 * still be the one whose fingerprint was compared.
 */
export async function grantCompanyKey(
  deps: KeyDependencies,
  principal: StaffPrincipal,
  input: CompanyKeyGrantRequest,
): Promise<void> {
  await deps.unitOfWork(async (tx) => {
    const keys = await companyKeyRepository.lockKeys(tx, principal.companyId);
    if (!keys.some((key) => key.version === input.key_version))
      throw new ConflictError('The company key changed: reload the page');
    const recipient = await userRepository.byId(tx, principal.companyId, input.user_id);
    if (!recipient) throw new NotFoundError('User not found');
    const key = await personKeyRepository.ofUser(tx, principal.companyId, input.user_id);
    if (!key) throw new ConflictError('This person has no keys yet');
    if (key.fingerprint !== input.fingerprint)
      throw new ConflictError("This person's key changed since you compared it: compare the new fingerprint");
    if (input.request_id) {
      const request = await companyKeyRepository.deleteRequest(tx, principal.companyId, input.request_id);
      if (!request || request.user_id !== input.user_id || request.expires_at <= new Date())
        throw new ConflictError('This request has expired: ask them to request access again');
    }
    const selfRecovery = input.user_id === principal.userId;
    if (!selfRecovery) await requireHolder(tx, principal, input.key_version);
    await recordGrant(tx, principal, {
      userId: input.user_id,
      keyId: key.key_id,
      version: input.key_version,
      wrapped: input.grant,
      fingerprint: key.fingerprint,
      reason: selfRecovery ? 'recovery' : 'approval',
    });
    await companyKeyRepository.deleteRequestsOf(tx, principal.companyId, input.user_id);
  });
}

/** POST /api/account/company/keys/requests: a team member without the key asks the admins (expires in 7 days). */
export async function requestCompanyKey(deps: KeyDependencies, principal: StaffPrincipal): Promise<{ id: string }> {
  const id = randomUUID();
  await deps.unitOfWork(async (tx) => {
    const [current] = await companyKeyRepository.keys(tx, principal.companyId);
    const person = await personKeyRepository.ofUser(tx, principal.companyId, principal.userId);
    if (!person) throw new ConflictError('Set up your keys first');
    const held = await companyKeyRepository.grantsOf(tx, principal.companyId, principal.userId);
    if (current && held.some((grant) => grant.key_version === current.version))
      throw new ConflictError('You already hold the company key');
    await companyKeyRepository.putRequest(tx, principal.companyId, {
      id,
      userId: principal.userId,
      keyId: person.key_id,
      expiresAt: new Date(Date.now() + ACCESS_REQUEST_LIFETIME_MS),
    });
    await tx.addEvent({
      name: 'company.key_access_requested',
      company_id: principal.companyId,
      payload: { user_id: principal.userId, request_id: id, fingerprint: person.fingerprint },
      actor: staffActor(principal),
    });
  });
  return { id };
}

/** DELETE /api/account/company/keys/requests/{id}: another admin declines (or the person withdraws). */
export async function declineCompanyKeyRequest(
  deps: KeyDependencies,
  principal: StaffPrincipal,
  requestId: string,
): Promise<void> {
  await deps.unitOfWork(async (tx) => {
    const request = await companyKeyRepository.deleteRequest(tx, principal.companyId, requestId);
    if (!request) throw new NotFoundError('Request not found');
    await tx.addEvent({
      name: 'company.key_access_declined',
      company_id: principal.companyId,
      payload: { user_id: request.user_id, request_id: requestId },
      actor: staffActor(principal),
    });
  });
}

/** PUT /api/account/company/keys/recovery: a new recovery kit seals the current key; the old kit opens nothing more. */
export async function rotateRecoveryKit(
  deps: KeyDependencies,
  principal: StaffPrincipal,
  input: { key_version: number; aes_encrypted_private_key: string },
): Promise<void> {
  await deps.unitOfWork(async (tx) => {
    const [current] = await companyKeyRepository.lockKeys(tx, principal.companyId);
    if (!current || current.version !== input.key_version)
      throw new ConflictError('The company key changed: reload the page');
    await requireHolder(tx, principal, current.version);
    await companyKeyRepository.setRecovery(tx, principal.companyId, current.version, input.aes_encrypted_private_key);
    await tx.addEvent({
      name: 'company.recovery_kit_rotated',
      company_id: principal.companyId,
      payload: { key_version: current.version, fingerprint: await companyFingerprint(current.public_key) },
      actor: staffActor(principal),
    });
  });
}
