import { ApiError, changePassword, type ApiClient } from '@whistle/api-client';
import type { OwnKeysResponse, ProfileUpdateResponse } from '@whistle/contracts';
import { deriveStaffSecrets } from './staff-secrets';

/**
 * The account page's password change: both passwords derived here (neither travels), and the keys' password copy
 * sealed again under the new one. Answers the server's answer and, when there was a copy, the new unlock of it.
 */
export async function changePasswordResealing(
  api: ApiClient,
  own: OwnKeysResponse,
  currentPassword: string,
  newPassword: string,
): Promise<{
  answer: ProfileUpdateResponse;
  resealed?: { key: CryptoKey; methodId: string; sealed: string };
}> {
  if (!own.password) throw new Error('You have no password');
  const { CURRENT_KDF, newKdfSalt, resealPersonSecret } = await import('@whistle/crypto');
  const kdfSalt = newKdfSalt();
  const [previous, fresh] = await Promise.all([
    deriveStaffSecrets(currentPassword, own.password.salt, own.password.kdf),
    deriveStaffSecrets(newPassword, kdfSalt),
  ]);
  const copy = own.person?.unlock.find((method) => method.method === 'password');
  let sealed: string | undefined;
  if (own.person && copy) {
    // A wrong current password opens nothing: the server would say so too, this says it without a round trip.
    sealed = await resealPersonSecret(previous.unlockKey, copy.sealed_private_keys, own.person, fresh.unlockKey).catch(
      () => {
        throw new ApiError('/api/account/profile', 400, 'Bad Request', {
          message: 'Bad Request',
          errors: { current_password: ['The current password is wrong'] },
        });
      },
    );
  }
  const answer = await changePassword(api, {
    password: fresh.authSecret,
    kdf: CURRENT_KDF,
    kdf_salt: kdfSalt,
    current_password: previous.authSecret,
    ...(sealed ? { sealed_private_keys: sealed } : {}),
  });
  return { answer, resealed: sealed && copy ? { key: fresh.unlockKey, methodId: copy.id, sealed } : undefined };
}
