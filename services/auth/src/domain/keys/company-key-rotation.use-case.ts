import type { CompanyKeyRotationRequest, EventEnvelope } from '@whistle/contracts';
import { companyFingerprint } from '@whistle/crypto';
import { ConflictError, InputError, NotFoundError, type Transaction } from '@whistle/service-kit';
import type { StaffPrincipal } from '@whistle/tokens';
import { companyKeyRepository } from '../../data-access/company-key.repository';
import { personKeyRepository } from '../../data-access/person-key.repository';
import { recordGrant, requireHolder, staffActor } from './company-key-grants';
import type { KeyDependencies } from './key-dependencies';

/**
 * POST /api/account/company/keys/rotation (docs/security.md, "Rotation"): a new company key pair made in an admin's
 * browser. It is granted at once to everyone who holds the current key (the browser wrapped it to each, after the
 * page showed their fingerprints) and sealed for a new recovery kit; new reports use it at once (the public company
 * view serves it). The current key becomes the previous one, still held, until the incident service says every case
 * is re-wrapped (completeRotation). One rotation at a time.
 */
export async function startCompanyKeyRotation(
  deps: KeyDependencies,
  principal: StaffPrincipal,
  input: CompanyKeyRotationRequest,
): Promise<{ key_version: number }> {
  return deps.unitOfWork(async (tx) => {
    const keys = await companyKeyRepository.lockKeys(tx, principal.companyId);
    const [current] = keys;
    if (!current) throw new NotFoundError('Company not found');
    if (keys.some((key) => key.state === 'previous'))
      throw new ConflictError('A rotation of the company key is already under way: resume it');
    if (current.version !== input.key_version) throw new ConflictError('The company key changed: reload the page');
    if (!current.recovery_sealed_private_key) throw new ConflictError('Move the company key to its admins first');
    await requireHolder(tx, principal, current.version);
    const recipients = await checkedRecipients(tx, principal, current.version, input.grants);
    const version = await companyKeyRepository.startRotation(tx, principal.companyId, {
      fromVersion: current.version,
      publicKey: input.public_key,
      recoverySealed: input.aes_encrypted_private_key,
      startedBy: principal.userId,
    });
    if (version === undefined) throw new ConflictError('The company key changed: reload the page');
    for (const { grant, key } of recipients)
      await recordGrant(tx, principal, {
        userId: grant.user_id,
        keyId: key.key_id,
        version,
        wrapped: grant.grant,
        fingerprint: key.fingerprint,
        reason: 'rotation',
      });
    await tx.addEvent({
      name: 'company.key_rotation_started',
      company_id: principal.companyId,
      payload: {
        key_version: version,
        previous_key_version: current.version,
        public_key: input.public_key,
        fingerprint: await companyFingerprint(input.public_key),
      },
      actor: staffActor(principal),
    });
    return { key_version: version };
  });
}

/**
 * The new key goes to exactly the people who hold the current one: nobody loses access by a rotation (removing
 * someone is its own act, which deletes their grants), nobody gains it without an approval. Each recipient's key
 * must still be the one whose fingerprint the page showed.
 */
async function checkedRecipients(
  tx: Transaction,
  principal: StaffPrincipal,
  version: number,
  grants: CompanyKeyRotationRequest['grants'],
) {
  const holders = await companyKeyRepository.holders(tx, principal.companyId, version);
  const named = new Set(grants.map((grant) => grant.user_id));
  if (named.size !== grants.length) throw new InputError('Bad Request', { grants: ['One grant per person'] });
  if (!named.has(principal.userId))
    throw new InputError('Bad Request', { grants: ['The new key must be granted to you too'] });
  if (grants.some((grant) => !holders.has(grant.user_id)))
    throw new InputError('Bad Request', { grants: ['Only people who hold the company key get the new one'] });
  if ([...holders].some((userId) => !named.has(userId)))
    throw new ConflictError('Someone was given the company key since the page loaded: reload the page');
  const recipients = [];
  for (const grant of grants) {
    const key = await personKeyRepository.ofUser(tx, principal.companyId, grant.user_id);
    if (!key || key.fingerprint !== grant.fingerprint)
      throw new ConflictError("A person's key changed since the page showed it: reload and compare again");
    recipients.push({ grant, key });
  }
  return recipients;
}

/**
 * The incident service re-wrapped every case of the previous key (`incident.company_key_rewrapped`): that key's
 * private key goes — every grant of it and the old recovery kit's copy — and the trail says so. In the consumer's
 * transaction; a repeated announcement, or one for a version that is not the previous one, changes nothing.
 */
export async function completeCompanyKeyRotation(
  tx: Transaction,
  event: Pick<EventEnvelope, 'company_id' | 'actor'>,
  versions: { key_version: number; previous_key_version: number },
): Promise<void> {
  const companyId = event.company_id!;
  const keys = await companyKeyRepository.lockKeys(tx, companyId);
  const [current, previous] = keys;
  if (current?.version !== versions.key_version || previous?.version !== versions.previous_key_version) return;
  if (previous.state !== 'previous') return;
  const holders = await companyKeyRepository.deletePrevious(tx, companyId, previous.version);
  const actor = event.actor ?? { type: 'SYSTEM' as const };
  for (const userId of holders)
    await tx.addEvent({
      name: 'company.key_revoked',
      company_id: companyId,
      payload: { user_id: userId, key_version: previous.version, reason: 'rotation_completed' },
      actor,
    });
  await tx.addEvent({
    name: 'company.key_rotation_completed',
    company_id: companyId,
    payload: {
      key_version: current.version,
      previous_key_version: previous.version,
      fingerprint: await companyFingerprint(current.public_key),
    },
    actor,
  });
}
