import { argon2id } from 'hash-wasm';
import { solveProofOfWorkWith, verifyProofOfWorkWith } from './proof-of-work-core';

export {
  MAX_PROOF_OF_WORK_DIFFICULTY,
  PROOF_OF_WORK,
  isProofOfWorkNonce,
  leadingZeroBits,
  type Argon2id,
} from './proof-of-work-core';

/** Whether `nonce` solves `challenge` at `difficulty` (one Argon2id evaluation; hash-wasm's ES build). */
export const verifyProofOfWork = (challenge: string, nonce: string, difficulty: number) =>
  verifyProofOfWorkWith(argon2id, challenge, nonce, difficulty);

/** Tries nonces until one solves the challenge (see `solveProofOfWorkWith`; hash-wasm's ES build). */
export const solveProofOfWork = (challenge: string, difficulty: number, options: { signal?: AbortSignal } = {}) =>
  solveProofOfWorkWith(argon2id, challenge, difficulty, options);
