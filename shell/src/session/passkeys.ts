import { fromBase64Url, toBase64Url } from '@whistle/crypto';

/**
 * Passkeys that unlock a person's keys: the WebAuthn PRF extension gives, for a passkey and an input we choose (the
 * PRF salt), 32 bytes that only that authenticator can give again. They derive the key of that passkey's sealed
 * copy. The server never verifies these ceremonies: a passkey here opens keys, it does not sign anyone in (SSO or
 * the password does). Types are local: the DOM typings of the PRF extension lag behind the browsers.
 */

/** Raised when the browser or the authenticator has no PRF: the person uses an unlock passphrase instead. */
export class PasskeyUnavailableError extends Error {
  override name = 'PasskeyUnavailableError';
  constructor() {
    super('This browser or security key cannot unlock keys with a passkey');
  }
}

/**
 * Raised when the authenticator already holds one of this person's passkeys (WebAuthn's InvalidStateError for an
 * excluded credential): a second one there would replace the first, whose copy of the keys would then open nothing.
 */
export class PasskeyAlreadyRegisteredError extends Error {
  override name = 'PasskeyAlreadyRegisteredError';
  constructor() {
    super('This device or security key already holds one of your passkeys');
  }
}

interface PrfResults {
  prf?: { enabled?: boolean; results?: { first?: ArrayBuffer } };
}

const random = (size: number) => crypto.getRandomValues(new Uint8Array(size));

export const passkeysSupported = () =>
  typeof navigator !== 'undefined' && Boolean(navigator.credentials) && typeof PublicKeyCredential !== 'undefined';

export interface NewPasskey {
  credentialId: string;
  prfSalt: string;
  prfOutput: Uint8Array;
}

/**
 * Registers a passkey for this person on this site and reads its PRF output for a fresh salt. `existing` are the
 * person's passkeys already stored: an authenticator holding one refuses, instead of overwriting it (a discoverable
 * credential of the same user id replaces the one before).
 */
export async function createPasskey(
  user: { id: string; email: string; name: string },
  existing: readonly string[] = [],
): Promise<NewPasskey> {
  if (!passkeysSupported()) throw new PasskeyUnavailableError();
  const salt = random(32);
  const credential = (await navigator.credentials
    .create({
      publicKey: {
        rp: { name: 'Whistle', id: location.hostname },
        user: { id: new TextEncoder().encode(user.id), name: user.email, displayName: user.name },
        challenge: random(32),
        pubKeyCredParams: [
          { type: 'public-key', alg: -7 },
          { type: 'public-key', alg: -257 },
        ],
        excludeCredentials: existing.map((id) => ({ type: 'public-key', id: fromBase64Url(id) })),
        authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
        extensions: { prf: { eval: { first: salt } } } as AuthenticationExtensionsClientInputs,
      },
    })
    .catch((error: unknown) => {
      throw error instanceof Error && error.name === 'InvalidStateError' ? new PasskeyAlreadyRegisteredError() : error;
    })) as PublicKeyCredential | null;
  if (!credential) throw new PasskeyUnavailableError();
  const results = credential.getClientExtensionResults() as PrfResults;
  if (!results.prf?.enabled) throw new PasskeyUnavailableError();
  const credentialId = toBase64Url(new Uint8Array(credential.rawId));
  // Some authenticators give the PRF output only when asked with the passkey: ask once more.
  const first = results.prf.results?.first;
  const prfOutput = first
    ? new Uint8Array(first)
    : (await passkeyAssertion([{ credentialId, prfSalt: toBase64Url(salt) }])).prfOutput;
  return { credentialId, prfSalt: toBase64Url(salt), prfOutput };
}

/** Asks the authenticator for one of these passkeys and answers which one, with its PRF output. */
export async function passkeyAssertion(
  passkeys: readonly { credentialId: string; prfSalt: string }[],
): Promise<{ credentialId: string; prfOutput: Uint8Array }> {
  if (!passkeysSupported() || passkeys.length === 0) throw new PasskeyUnavailableError();
  const evalByCredential = Object.fromEntries(
    passkeys.map((passkey) => [passkey.credentialId, { first: fromBase64Url(passkey.prfSalt) }]),
  );
  const assertion = (await navigator.credentials.get({
    publicKey: {
      challenge: random(32),
      rpId: location.hostname,
      allowCredentials: passkeys.map((passkey) => ({ type: 'public-key', id: fromBase64Url(passkey.credentialId) })),
      userVerification: 'required',
      extensions: { prf: { evalByCredential } } as AuthenticationExtensionsClientInputs,
    },
  })) as PublicKeyCredential | null;
  const output = (assertion?.getClientExtensionResults() as PrfResults | undefined)?.prf?.results?.first;
  if (!assertion || !output) throw new PasskeyUnavailableError();
  return { credentialId: toBase64Url(new Uint8Array(assertion.rawId)), prfOutput: new Uint8Array(output) };
}
