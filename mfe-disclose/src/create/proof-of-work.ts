import { getProofOfWorkChallenge, type ApiClient } from '@whistle/api-client';
import type { ProofOfWorkChallenge, ProofOfWorkSolution } from '@whistle/contracts';
import type { ProofOfWorkMessage, ProofOfWorkRequest } from './proof-of-work.worker';
import { startProofOfWorkWorker } from './proof-of-work-worker';

/**
 * The report's proof of work (docs/security.md, "Report flooding"), started when the form opens and solved in a
 * Web Worker while the discloser writes: at a company's normal volume the challenge asks nothing and this is one
 * request. `solution()` is what the report sends; undefined when no challenge could be had (the server then says
 * whether work was needed).
 */
export interface BackgroundProof {
  solution(): Promise<ProofOfWorkSolution | undefined>;
  /** Drops the current challenge and solves a new one: the server found it spent, expired or outgrown. */
  renew(): void;
  stop(): void;
}

/** A challenge this close to its expiry is replaced before it is sent: the report may take that long to arrive. */
const EXPIRY_MARGIN_MS = 60_000;

export function solveInBackground({
  api,
  urlIdentifier,
  startWorker = startProofOfWorkWorker,
}: {
  api: ApiClient;
  urlIdentifier: string;
  startWorker?: () => Worker;
}): BackgroundProof {
  let worker: Worker | undefined;
  let current: { challenge: Promise<ProofOfWorkChallenge>; solution: Promise<ProofOfWorkSolution | undefined> };

  function solve({ challenge, difficulty }: ProofOfWorkChallenge): Promise<ProofOfWorkSolution> {
    if (difficulty === 0) return Promise.resolve({ challenge, nonce: '0' });
    const running = startWorker();
    worker = running;
    return new Promise<ProofOfWorkSolution>((resolve, reject) => {
      running.onmessage = ({ data }: MessageEvent<ProofOfWorkMessage>) => {
        running.terminate();
        if (data.type === 'solved') resolve({ challenge, nonce: data.nonce });
        else reject(new Error('The proof of work failed'));
      };
      running.onerror = () => {
        running.terminate();
        reject(new Error('The proof of work failed'));
      };
      running.postMessage({ challenge, difficulty } satisfies ProofOfWorkRequest);
    });
  }

  function start() {
    const challenge = getProofOfWorkChallenge(api, urlIdentifier);
    // Never rejects: a report without a solution is still sent, and refused only if work was needed.
    const solution = challenge.then(solve).catch(() => undefined);
    challenge.catch(() => undefined);
    current = { challenge, solution };
  }

  start();
  return {
    async solution() {
      const challenge = await current.challenge.catch(() => undefined);
      if (challenge && Date.parse(challenge.expires) - Date.now() < EXPIRY_MARGIN_MS) this.renew();
      return current.solution;
    },
    renew() {
      worker?.terminate();
      start();
    },
    stop() {
      worker?.terminate();
    },
  };
}
