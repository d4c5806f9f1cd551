import type { argon2id } from 'hash-wasm';

/** Argon2id as hash-wasm computes it: its ES build (server, tests) or its Argon2-only UMD build (the page's worker). */
export type Argon2id = typeof argon2id;

// Self-contained (no other module of the package): the discloser page's worker bundles this file alone.
const utf8Encode = (text: string) => new TextEncoder().encode(text);

/**
 * The report intake's proof of work (docs/security.md, "Report flooding"): find a nonce whose
 * Argon2id(nonce, challenge) starts with `difficulty` zero bits. Argon2id, memory-hard, keeps a GPU or an
 * ASIC from doing the work much faster than the discloser's browser does; one try is a few milliseconds, so the
 * server checks an answer for about what it costs to parse it, and the expected work doubles with each bit.
 */
export const PROOF_OF_WORK = { name: 'argon2id-pow-v1', memoryKiB: 1024, iterations: 1, parallelism: 1, hashBytes: 32 };

/** The highest difficulty a challenge may ask: 2^24 tries would take the discloser's browser a day. */
export const MAX_PROOF_OF_WORK_DIFFICULTY = 24;

async function proofHash(argon2: Argon2id, challenge: string, nonce: number): Promise<Uint8Array> {
  return argon2({
    password: utf8Encode(String(nonce)),
    // The challenge is the salt: no two challenges share a try, so no work done for one serves another.
    salt: utf8Encode(challenge),
    parallelism: PROOF_OF_WORK.parallelism,
    iterations: PROOF_OF_WORK.iterations,
    memorySize: PROOF_OF_WORK.memoryKiB,
    hashLength: PROOF_OF_WORK.hashBytes,
    outputType: 'binary',
  });
}

/** How many zero bits the hash starts with. */
export function leadingZeroBits(bytes: Uint8Array): number {
  let bits = 0;
  for (const byte of bytes) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

/** A nonce as it is sent: decimal digits, without leading zeros, below 2^53. */
export const isProofOfWorkNonce = (nonce: string) => /^(0|[1-9][0-9]{0,15})$/.test(nonce);

/** Whether `nonce` solves `challenge` at `difficulty` (one Argon2id evaluation, by `argon2`). */
export async function verifyProofOfWorkWith(
  argon2: Argon2id,
  challenge: string,
  nonce: string,
  difficulty: number,
): Promise<boolean> {
  if (!isProofOfWorkNonce(nonce) || !Number.isSafeInteger(Number(nonce))) return false;
  if (!Number.isInteger(difficulty) || difficulty < 0 || difficulty > MAX_PROOF_OF_WORK_DIFFICULTY) return false;
  if (difficulty === 0) return true;
  return leadingZeroBits(await proofHash(argon2, challenge, Number(nonce))) >= difficulty;
}

/**
 * Tries nonces 0, 1, 2... until one solves the challenge (2^difficulty tries expected). Run it in a Web Worker:
 * it keeps its thread busy. `signal` stops it between two tries.
 */
export async function solveProofOfWorkWith(
  argon2: Argon2id,
  challenge: string,
  difficulty: number,
  { signal }: { signal?: AbortSignal } = {},
): Promise<string> {
  if (!Number.isInteger(difficulty) || difficulty < 0 || difficulty > MAX_PROOF_OF_WORK_DIFFICULTY)
    throw new RangeError(`Unsupported proof-of-work difficulty ${difficulty}`);
  if (difficulty === 0) return '0';
  for (let nonce = 0; ; nonce += 1) {
    signal?.throwIfAborted();
    if (leadingZeroBits(await proofHash(argon2, challenge, nonce)) >= difficulty) return String(nonce);
  }
}
