import type { StaffSecrets } from '@whistle/crypto';
import type { StaffSecretsMessage, StaffSecretsRequest } from './staff-secrets.worker';
import { startStaffSecretsWorker } from './staff-secrets-worker';

export interface DerivationOptions {
  meanwhile?: () => void;
  startWorker?: () => Worker;
}

let prepared: Worker | undefined;

/**
 * Starts the next derivation's worker ahead (the login page does once idle, while the person types), so its script
 * and Argon2id's WebAssembly are loaded and compiled off the sign-in's path. It holds nothing until a derivation
 * posts to it, serves that one derivation only, and is dropped if it fails before. Never throws: a refused worker
 * is the derivation's to report.
 */
export function prepareStaffSecretsWorker(start: () => Worker = startStaffSecretsWorker): void {
  if (prepared || typeof Worker === 'undefined') return;
  try {
    const worker = start();
    worker.onerror = () => {
      if (prepared === worker) prepared = undefined;
      worker.terminate();
    };
    prepared = worker;
  } catch {
    prepared = undefined;
  }
}

/** The prepared worker, taken (never reused), or a new one. */
function takeOrStartWorker(): Worker {
  const worker = prepared ?? startStaffSecretsWorker();
  prepared = undefined;
  return worker;
}

/**
 * A password's (or unlock passphrase's) staff secrets, as every page of the shell derives them: in a dedicated Web
 * Worker, so the page's main thread stays free meanwhile (to run the code of the page a sign-in leads to, to
 * draw). The password goes in the one message to the worker, which answers once and is ended. Where the browser
 * has no Workers (jsdom), the same derivation runs in the page. A worker that cannot start (refused by the CSP
 * or Trusted Types) is an error, not a reason to fall back: it would hide a broken page. `meanwhile` is called once
 * the derivation is under way: main-thread work that should overlap with it (the sign-in runs the next page's code).
 */
export async function deriveStaffSecrets(
  password: string,
  salt: string,
  kdf?: string,
  { meanwhile, startWorker = takeOrStartWorker }: DerivationOptions = {},
): Promise<StaffSecrets> {
  if (typeof Worker === 'undefined') {
    const crypto = await import('@whistle/crypto');
    const derived = crypto.deriveStaffSecrets(password, salt, kdf);
    meanwhile?.();
    return derived;
  }
  const worker = startWorker();
  try {
    return await new Promise<StaffSecrets>((resolve, reject) => {
      worker.onmessage = ({ data }: MessageEvent<StaffSecretsMessage>) => {
        if (data.type === 'derived') resolve({ authSecret: data.authSecret, unlockKey: data.unlockKey });
        else reject(Object.assign(new Error(data.message), { name: data.name }));
      };
      worker.onerror = (event) => {
        event.preventDefault?.();
        reject(new Error('The password derivation could not run'));
      };
      worker.postMessage({ password, salt, kdf } satisfies StaffSecretsRequest);
      meanwhile?.();
    });
  } finally {
    worker.terminate();
  }
}
