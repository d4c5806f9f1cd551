// The report's proof of work, off the page's main thread: Argon2id tries keep a thread busy for as long as the
// company's volume asks (nothing at normal volume), while the discloser writes.
import { solveProofOfWorkWith } from '@whistle/crypto/proof-of-work-core';
// hash-wasm's Argon2-only build, which nothing else of the pages imports: the worker's bundle is whole. With the ES
// build, shared with the page's chunks, the worker would need a split chunk, which the federation runtime cannot
// name from a worker (and the page does not need Argon2 at all).
import { argon2id } from 'hash-wasm/dist/argon2.umd.min.js';

export interface ProofOfWorkRequest {
  challenge: string;
  difficulty: number;
}

export type ProofOfWorkMessage = { type: 'solved'; nonce: string } | { type: 'failed' };

/** The worker's global scope, as much as this worker uses (the webworker lib would retype every window). */
declare const self: {
  onmessage: ((event: MessageEvent<ProofOfWorkRequest>) => void) | null;
  postMessage(message: ProofOfWorkMessage): void;
};

self.onmessage = async ({ data }: MessageEvent<ProofOfWorkRequest>) => {
  try {
    self.postMessage({ type: 'solved', nonce: await solveProofOfWorkWith(argon2id, data.challenge, data.difficulty) });
  } catch {
    self.postMessage({ type: 'failed' });
  }
};
