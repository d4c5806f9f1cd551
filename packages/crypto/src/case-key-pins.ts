import { toBase64Url, utf8Encode } from './encoding';
import { parseVersioned } from './format';
import { PARAMS } from './params';
import type { PersonKeys } from './person-keys';
import { deriveBytes, ecdhSharedSecret, importPublicKeyRaw, subtle } from './webcrypto';

/** What a staff browser keeps of one case it opened: where (`slot`) and which incident public key (`pin`). */
export interface CaseKeyPin {
  slot: string;
  pin: string;
}

/**
 * The key of a person's case key pins (docs/security.md, "Pinned case keys"): HKDF of the ECDH of their own private
 * key with their own public key. Only their unlocked keys compute it, and the same keys compute it again after any
 * unlock, so pins kept across sign-outs stay theirs alone: on a shared device another person, or a script reading
 * IndexedDB without the keys, learns neither which cases they opened nor with which key. Non-extractable HMAC key.
 */
export async function caseKeyPinKey(person: PersonKeys): Promise<CryptoKey> {
  const [point] = parseVersioned(person.publicKeys.public_key, 'public key', [PARAMS.ecdh.publicKeyBytes]);
  const shared = await ecdhSharedSecret(person.decryptionKey, await importPublicKeyRaw(point));
  const raw = await deriveBytes(shared, new Uint8Array(0), PARAMS.v2.info.caseKeyPins, 32);
  shared.fill(0);
  try {
    return await subtle().importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  } finally {
    raw.fill(0);
  }
}

const mac = async (key: CryptoKey, text: string) =>
  toBase64Url(new Uint8Array(await subtle().sign('HMAC', key, utf8Encode(text))));

/**
 * One case's pin under `pinKey`: the slot names the case, the pin its incident public key (and the case again, so a
 * pin copied to another slot never matches). Equal pins for one slot: the same key as when it was pinned.
 */
export async function caseKeyPin(
  pinKey: CryptoKey,
  incidentUuid: string,
  incidentPublicKey: string,
): Promise<CaseKeyPin> {
  const [slot, pin] = await Promise.all([
    mac(pinKey, `case\n${incidentUuid}`),
    mac(pinKey, `incident-public-key\n${incidentUuid}\n${incidentPublicKey}`),
  ]);
  return { slot, pin };
}
