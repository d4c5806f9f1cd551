import { caseKeyPin, caseKeyPinKey } from './case-key-pins';
import { createPersonKeys, sealPersonSecret, unlockPersonKeys } from './person-keys';
import { encodePublicKey } from './wrap';
import { exportPublicKeyRaw, generateExportableKeyPair, importAesKey, randomBytes } from './webcrypto';

const CASE = '0b7b1f4e-2c1d-4b9a-9f00-000000000001';
const OTHER_CASE = '0b7b1f4e-2c1d-4b9a-9f00-000000000002';

/** A person's keys as two sign-ins unlock them: one sealed copy, opened twice. */
async function unlockedTwice() {
  const unlockKey = await importAesKey(randomBytes(32), ['encrypt', 'decrypt']);
  const { publicKeys, secret } = await createPersonKeys();
  const sealed = await sealPersonSecret(unlockKey, secret, publicKeys);
  return Promise.all([
    unlockPersonKeys(unlockKey, sealed, publicKeys),
    unlockPersonKeys(unlockKey, sealed, publicKeys),
  ]);
}

/** An incident public key as a report's browser makes one. */
const incidentPublicKey = async () =>
  encodePublicKey(await exportPublicKeyRaw((await generateExportableKeyPair()).publicKey));

describe('case key pins: what a staff browser keeps of the incident key it first saw', () => {
  it('when the same person unlocks again (a new sign-in), then their pin of a case is the same', async () => {
    const [first, second] = await unlockedTwice();
    const key = await incidentPublicKey();
    const pinKey = await caseKeyPinKey(first);
    expect(pinKey.extractable).toBe(false);
    expect(await caseKeyPin(await caseKeyPinKey(second), CASE, key)).toEqual(await caseKeyPin(pinKey, CASE, key));
  });

  it('when the incident key differs, then the slot is the same and the pin is not', async () => {
    const [person] = await unlockedTwice();
    const pinKey = await caseKeyPinKey(person);
    const pinned = await caseKeyPin(pinKey, CASE, await incidentPublicKey());
    const swapped = await caseKeyPin(pinKey, CASE, await incidentPublicKey());
    expect(swapped.slot).toBe(pinned.slot);
    expect(swapped.pin).not.toBe(pinned.pin);
  });

  it('when a pin is copied to another case, then it is not that case’s pin', async () => {
    const [person] = await unlockedTwice();
    const pinKey = await caseKeyPinKey(person);
    const key = await incidentPublicKey();
    const here = await caseKeyPin(pinKey, CASE, key);
    const there = await caseKeyPin(pinKey, OTHER_CASE, key);
    expect(there.slot).not.toBe(here.slot);
    expect(there.pin).not.toBe(here.pin);
  });

  it('when another person pins the same case and key, then nothing of it matches theirs (a shared device)', async () => {
    const [ada] = await unlockedTwice();
    const [hal] = await unlockedTwice();
    const key = await incidentPublicKey();
    const adas = await caseKeyPin(await caseKeyPinKey(ada), CASE, key);
    const hals = await caseKeyPin(await caseKeyPinKey(hal), CASE, key);
    expect(hals.slot).not.toBe(adas.slot);
    expect(hals.pin).not.toBe(adas.pin);
    // Neither names the case nor the key in clear: MACs of 256 bits.
    for (const value of [adas.slot, adas.pin]) {
      expect(value).toMatch(/^[\w-]{43}$/);
      expect(value).not.toContain(CASE);
    }
  });
});
