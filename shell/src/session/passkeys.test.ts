import { fromBase64Url, toBase64Url } from '@whistle/crypto';
import { createPasskey, PasskeyAlreadyRegisteredError, passkeyAssertion } from './passkeys';

/**
 * What the page asks of WebAuthn, with `navigator.credentials` standing in for the browser (the Chromium journey,
 * e2e/test/browser/passkeys.journey.test.ts, runs the real API against virtual authenticators with PRF).
 */
const RAW_ID = Uint8Array.from({ length: 16 }, (_, i) => i + 1);
const PRF_OUTPUT = new Uint8Array(32).fill(7);
const credential = (prf: { enabled?: boolean; results?: { first: ArrayBuffer } }) => ({
  rawId: RAW_ID.buffer,
  getClientExtensionResults: () => ({ prf }),
});
const create = jest.fn();
const get = jest.fn();

beforeAll(() => {
  Object.defineProperty(navigator, 'credentials', { value: { create, get }, configurable: true });
  Object.defineProperty(globalThis, 'PublicKeyCredential', { value: class {}, configurable: true });
});
beforeEach(() => {
  create.mockReset();
  get.mockReset();
});

const person = { id: '9b2f6c1e-3d4a-4c5b-8e7f-1a2b3c4d5e6f', email: 'hana@example.com', name: 'Hana Handler' };

describe('passkeys (WebAuthn PRF)', () => {
  test('when a passkey is made, then it names this site, the person and their passkeys already stored, and asks the PRF for a fresh salt', async () => {
    create.mockResolvedValue(credential({ enabled: true, results: { first: PRF_OUTPUT.buffer } }));
    const existing = toBase64Url(Uint8Array.of(9, 9, 9));
    const made = await createPasskey(person, [existing]);
    const { publicKey } = create.mock.calls[0][0] as { publicKey: PublicKeyCredentialCreationOptions };
    expect(publicKey.rp.id).toBe(location.hostname);
    expect(new TextDecoder().decode(publicKey.user.id as Uint8Array)).toBe(person.id);
    expect(publicKey.excludeCredentials).toEqual([{ type: 'public-key', id: Uint8Array.of(9, 9, 9) }]);
    const salt = (publicKey.extensions as { prf: { eval: { first: Uint8Array } } }).prf.eval.first;
    expect(made).toEqual({ credentialId: toBase64Url(RAW_ID), prfSalt: toBase64Url(salt), prfOutput: PRF_OUTPUT });
  });

  test('when the authenticator already holds one of the person’s passkeys, then it says so instead of a browser error', async () => {
    create.mockRejectedValue(Object.assign(new Error('excluded'), { name: 'InvalidStateError' }));
    await expect(createPasskey(person, [toBase64Url(RAW_ID)])).rejects.toThrow(PasskeyAlreadyRegisteredError);
  });

  test('when the PRF output comes only with an assertion, then the new passkey is asked once more with its salt', async () => {
    create.mockResolvedValue(credential({ enabled: true }));
    get.mockResolvedValue(credential({ results: { first: PRF_OUTPUT.buffer } }));
    const made = await createPasskey(person);
    const { publicKey } = get.mock.calls[0][0] as { publicKey: PublicKeyCredentialRequestOptions };
    expect(publicKey.allowCredentials).toEqual([{ type: 'public-key', id: RAW_ID }]);
    const evalByCredential = (
      publicKey.extensions as { prf: { evalByCredential: Record<string, { first: Uint8Array }> } }
    ).prf.evalByCredential;
    expect(toBase64Url(evalByCredential[made.credentialId]!.first)).toBe(made.prfSalt);
    expect(made.prfOutput).toEqual(PRF_OUTPUT);
  });

  test('when unlocking, then each passkey is evaluated with its own salt, keyed by its base64url id', async () => {
    get.mockResolvedValue(credential({ results: { first: PRF_OUTPUT.buffer } }));
    const passkeys = [
      { credentialId: toBase64Url(RAW_ID), prfSalt: toBase64Url(new Uint8Array(32).fill(1)) },
      { credentialId: toBase64Url(Uint8Array.of(5, 5)), prfSalt: toBase64Url(new Uint8Array(32).fill(2)) },
    ];
    const used = await passkeyAssertion(passkeys);
    const { publicKey } = get.mock.calls[0][0] as { publicKey: PublicKeyCredentialRequestOptions };
    expect(publicKey.rpId).toBe(location.hostname);
    expect(publicKey.userVerification).toBe('required');
    expect(publicKey.allowCredentials).toEqual(
      passkeys.map((passkey) => ({ type: 'public-key', id: fromBase64Url(passkey.credentialId) })),
    );
    expect(publicKey.extensions).toEqual({
      prf: {
        evalByCredential: Object.fromEntries(
          passkeys.map((passkey) => [passkey.credentialId, { first: fromBase64Url(passkey.prfSalt) }]),
        ),
      },
    });
    expect(used).toEqual({ credentialId: toBase64Url(RAW_ID), prfOutput: PRF_OUTPUT });
  });
});
