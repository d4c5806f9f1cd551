import { completeRewrap, getRewrapPage, isApiError, putRewrapped, type ApiClient } from '@whistle/api-client';
import { REWRAP_BATCH_MAX, type RewrapCase } from '@whistle/contracts';
// Only the worker imports this module (company-key-rewrap.worker.ts): the settings pages never load the protocol.
import { rewrapIncidentPassphrase } from '@whistle/crypto';

/** Cases re-wrapped at once: WebCrypto works on several in parallel; more would only queue. */
const SLICE = 8;
/** How long to wait for the incident service to hear of a rotation auth just started (it answers 503 meanwhile). */
const NOT_ARRIVED_RETRIES = 15;

export interface RewrapKeys {
  keyVersion: number;
  /** The current public key, whose private half the keyring opened from its own grant and checked. */
  publicKey: string;
  current: CryptoKey;
  previous: CryptoKey;
}

export interface RewrapProgress {
  done: number;
  total: number;
}

/**
 * `completed`: every case is re-wrapped and the incident service announced it (auth then deletes the old key).
 * `blocked`: cases are left that this browser cannot re-wrap — ones the admin is excluded from (another admin
 * finishes), or ones neither key opens (`unopened`, never stored).
 */
export type RewrapOutcome = { kind: 'completed' } | { kind: 'blocked'; remaining: number; unopened: number };

const retryAfterMs = (error: unknown) => {
  if (!isApiError(error) || error.status !== 503) return undefined;
  const seconds = Number(error.retryAfter ?? 1);
  return (Number.isFinite(seconds) && seconds > 0 ? seconds : 1) * 1000;
};

async function retryingWhileNotArrived<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      const wait = retryAfterMs(error);
      if (wait === undefined || attempt >= NOT_ARRIVED_RETRIES || signal?.aborted) throw error;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** One case, or undefined when neither key opens it (or it does not verify against its case). */
async function rewrapOne(item: RewrapCase, keys: RewrapKeys) {
  try {
    const { company_encrypted_passphrase } = await rewrapIncidentPassphrase({
      ...item,
      companyPrivateKeys: [keys.previous, keys.current],
      newCompanyPublicKey: keys.publicKey,
    });
    return { uuid: item.uuid, company_encrypted_passphrase };
  } catch (error) {
    // Its class is the crypto bundle's: by name.
    if (error instanceof Error && error.name === 'DecryptionError') return undefined;
    throw error;
  }
}

/**
 * The re-wrapping half of a company key rotation (docs/security.md, "Rotation"), in the admin's browser (a Web
 * Worker: company-key-rewrap.worker.ts, so the page only shows the progress): pages of
 * cases still under an older key, each passphrase opened, checked against its case and wrapped to the new key here,
 * each page stored as one batch. Stopped and started again (a reload, a lost connection), it picks up what is left:
 * the server hands out only cases not yet re-wrapped, and a batch sent twice stores nothing twice. Reports filed
 * meanwhile are picked up by another pass; then the incident service is asked to complete.
 */
export async function rewrapCompanyCases(
  api: ApiClient,
  keys: RewrapKeys,
  onProgress: (progress: RewrapProgress) => void,
  signal?: AbortSignal,
): Promise<RewrapOutcome> {
  let done = 0;
  for (;;) {
    let after: string | undefined;
    let remaining = 0;
    let storedThisPass = 0;
    let unopened = 0;
    do {
      const page = await retryingWhileNotArrived(
        () => getRewrapPage(api, { key_version: keys.keyVersion, after, limit: REWRAP_BATCH_MAX }, signal),
        signal,
      );
      remaining = page.remaining;
      onProgress({ done, total: done + remaining });
      const wrappings = [];
      for (let start = 0; start < page.cases.length; start += SLICE) {
        signal?.throwIfAborted();
        const slice = await Promise.all(page.cases.slice(start, start + SLICE).map((item) => rewrapOne(item, keys)));
        for (const wrapping of slice) if (wrapping) wrappings.push(wrapping);
        unopened += slice.filter((wrapping) => !wrapping).length;
      }
      if (wrappings.length > 0) {
        const result = await putRewrapped(api, { key_version: keys.keyVersion, wrappings });
        done += result.stored;
        storedThisPass += result.stored;
        remaining = result.remaining;
        onProgress({ done, total: done + remaining });
      }
      after = page.next_after ?? undefined;
    } while (after);
    if (remaining > 0) {
      // What is left is out of this browser's reach: another pass would find the same.
      if (storedThisPass === 0) return { kind: 'blocked', remaining, unopened };
      continue;
    }
    try {
      await completeRewrap(api, keys.keyVersion);
      return { kind: 'completed' };
    } catch (error) {
      // A report filed since the last page: one more pass.
      if (!isApiError(error) || error.status !== 409) throw error;
    }
  }
}
