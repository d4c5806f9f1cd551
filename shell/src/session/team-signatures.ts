import { postKeyEndorsement, type ApiClient, type StaffKeyring } from '@whistle/api-client';
import { checkedRecipient } from './company-key-holder';
import type { StoredKeys } from './key-store';

/** Loaded on the first use: the public pages (and the discloser's) never pay for the protocol. */
const cryptoModule = () => import('@whistle/crypto');

/**
 * What the unlocked person (`person()`, undefined while locked) signs with their signing key for the reporters'
 * pages (docs/security.md, "Signed staff messages"): what they send to a discloser, and, for admins, a member's key.
 */
export function createTeamSignatures(
  api: ApiClient,
  person: () => StoredKeys | undefined,
): Pick<StaffKeyring, 'signForDiscloser' | 'endorseTeamKey'> {
  return {
    async signForDiscloser(input) {
      const keys = person();
      if (!keys) return undefined;
      const { signStaffContent } = await cryptoModule();
      return signStaffContent(keys.person, input);
    },
    async endorseTeamKey({ companyId, endorserKeyId, member }) {
      const keys = person();
      if (!keys) throw new Error('Unlock your keys first');
      await checkedRecipient(member);
      const { endorseTeamKey } = await cryptoModule();
      const { company_id: _signedFor, ...endorsement } = await endorseTeamKey(keys.person, {
        company_id: companyId,
        key_id: member.keyId,
        signing_public_key: member.signingPublicKey,
        role: member.role,
        endorser_key_id: endorserKeyId,
      });
      // The company is the caller's own: the server adds it back, and the signature only verifies if it matches.
      await postKeyEndorsement(api, endorsement);
    },
  };
}
