// The report's proof of work, off the page's main thread: Argon2id tries keep a thread busy for as long as the
// company's volume asks (nothing at normal volume), while the discloser writes.
import { solveProofOfWork } from '@whistle/crypto';

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
    self.postMessage({ type: 'solved', nonce: await solveProofOfWork(data.challenge, data.difficulty) });
  } catch {
    self.postMessage({ type: 'failed' });
  }
};
