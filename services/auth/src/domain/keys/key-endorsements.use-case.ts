import { teamRole, type KeyEndorsementRequest } from '@whistle/contracts';
import { verifyKeyEndorsement } from '@whistle/crypto';
import { ConflictError, InputError, NotAllowedError } from '@whistle/service-kit';
import type { StaffPrincipal } from '@whistle/tokens';
import { keyEndorsementRepository } from '../../data-access/key-endorsement.repository';
import { personKeyRepository } from '../../data-access/person-key.repository';
import { userRepository } from '../../data-access/user.repository';
import { staffActor } from './company-key-grants';
import type { KeyDependencies } from './key-dependencies';

/**
 * POST /api/account/company/keys/endorsements: an admin's browser confirmed a member's current key and signed that
 * it belongs to the case team (docs/security.md, "Signed staff messages"). The server cannot vouch for it to the
 * discloser; it stores only what is what it says: by an admin of the company now, with their current key, of a
 * member's current key in their current role, and signed by the admin's stored signing key. The public company view
 * then serves it.
 */
export async function endorseKey(
  deps: KeyDependencies,
  principal: StaffPrincipal,
  input: KeyEndorsementRequest,
): Promise<void> {
  await deps.unitOfWork(async (tx) => {
    const endorser = await userRepository.byId(tx, principal.companyId, principal.userId);
    // The token's roles may be older than a demotion.
    if (!endorser?.roles.includes('ADMIN')) throw new NotAllowedError('Only an admin endorses keys');
    const endorserKey = await personKeyRepository.ofUser(tx, principal.companyId, principal.userId);
    if (!endorserKey) throw new ConflictError('Set up your keys first');
    if (endorserKey.key_id !== input.endorser_key_id)
      throw new ConflictError('Your keys changed since this page loaded: reload it');
    if (input.key_id === endorserKey.key_id)
      throw new InputError('Another admin confirms your own key', { key_id: ['Not your own key'] });
    const member = await personKeyRepository.memberByKeyId(tx, principal.companyId, input.key_id);
    if (!member) throw new ConflictError('This key is not a current key of your team: reload the page');
    if (member.signing_public_key !== input.signing_public_key)
      throw new ConflictError("This person's key changed since you compared it: compare the new fingerprint");
    if (teamRole(member.roles) !== input.role) throw new ConflictError("This person's role changed: reload the page");
    const endorsement = { ...input, company_id: principal.companyId };
    if (!(await verifyKeyEndorsement(endorserKey.signing_public_key, endorsement)))
      throw new InputError('Invalid signature', { signature: ['Not signed by your key'] });
    await keyEndorsementRepository.put(tx, principal.companyId, { ...input, endorsedBy: principal.userId });
    // The event is the audit trail's, and tells the public view (it serves endorsements) that it changed.
    await tx.addEvent({
      name: 'company.key_endorsed',
      company_id: principal.companyId,
      payload: {
        user_id: member.user_id,
        key_id: input.key_id,
        role: input.role,
        endorser_key_id: input.endorser_key_id,
      },
      actor: staffActor(principal),
    });
  });
}
