// The staff password derivation (Argon2id, then the HKDF split), off the page's main thread: at a phone's speed it
// holds a thread for over a second, during which the page can run the code of the page the sign-in leads to.
// One derivation per worker: the page starts it with one message, gets one answer and ends it, so nothing of the
// password outlives the call.
import { deriveStaffSecretsWith, type StaffSecrets } from '@whistle/crypto/staff-secrets-core';
// hash-wasm's Argon2-only build, whole in this worker's bundle: a worker cannot load a split chunk through the
// federation runtime (see mfe-disclose's proof-of-work worker).
import { argon2id } from 'hash-wasm/dist/argon2.umd.min.js';

export interface StaffSecretsRequest {
  password: string;
  salt: string;
  kdf?: string;
}

/** The unlock key is a non-extractable CryptoKey: structured cloning hands it over without exposing it. */
export type StaffSecretsMessage =
  ({ type: 'derived' } & StaffSecrets) | { type: 'failed'; name: string; message: string };

/** The worker's global scope, as much as this worker uses (the webworker lib would retype every window). */
declare const self: {
  onmessage: ((event: MessageEvent<StaffSecretsRequest>) => void) | null;
  postMessage(message: StaffSecretsMessage): void;
};

/**
 * hash-wasm compiles its WebAssembly at the first call and keeps it: a tiny derivation as the worker starts (8 KiB,
 * one pass, a constant input) compiles it then, so a worker started ahead of the sign-in has it ready.
 */
const compiled = argon2id({
  password: 'compile',
  salt: new Uint8Array(8),
  parallelism: 1,
  iterations: 1,
  memorySize: 8,
  hashLength: 4,
  outputType: 'binary',
}).catch(() => undefined);

const scope = self;
scope.onmessage = async ({ data }: MessageEvent<StaffSecretsRequest>) => {
  try {
    await compiled;
    const secrets = await deriveStaffSecretsWith(argon2id, data.password, data.salt, data.kdf);
    scope.postMessage({ type: 'derived', ...secrets });
  } catch (error) {
    // The error's kind and words only (CryptoFormatError: a malformed salt, an unknown kdf): never the input.
    const { name, message } = error instanceof Error ? error : new Error('The derivation failed');
    scope.postMessage({ type: 'failed', name, message });
  }
};
