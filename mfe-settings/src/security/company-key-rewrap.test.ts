/**
 * @jest-environment node
 */
// Node's environment: jsdom has no WebCrypto, and the point here is the real protocol.
import { createApiClient } from '@whistle/api-client';
import type { RewrapCase } from '@whistle/contracts';
import {
  createCompanyKeyPair,
  createIncidentCredentials,
  DecryptionError,
  importCompanyPrivateKey,
  unwrapWithPrivateKey,
} from '@whistle/crypto';
import { rewrapCompanyCases, type RewrapKeys, type RewrapProgress } from './company-key-rewrap';

const answer = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

interface StoredCase extends RewrapCase {
  /** Cases an excluded admin does not get. */
  hidden?: boolean;
}

/** The incident service's rewrap endpoints as far as the page uses them, over cases held in memory. */
function incidentService(cases: StoredCase[], options: { pageSize: number; fileDuringFirstComplete?: StoredCase }) {
  let completions = 0;
  const stored: string[] = [];
  const under = () => cases.filter((item) => item.company_key_version !== 2);
  jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init = {}) => {
    const url = new URL(String(input), 'http://whistle.test');
    if (url.pathname === '/api/incident/company-key/rewrap' && (init.method ?? 'GET') === 'GET') {
      const after = url.searchParams.get('after');
      const page = under()
        .filter((item) => !item.hidden && (!after || item.uuid > after))
        .sort((a, b) => a.uuid.localeCompare(b.uuid))
        .slice(0, options.pageSize);
      return answer(200, {
        key_version: 2,
        previous_key_version: 1,
        remaining: under().length,
        cases: page.map(({ hidden: _hidden, ...item }) => item),
        next_after: page.length === options.pageSize ? page[page.length - 1]!.uuid : null,
      });
    }
    if (url.pathname === '/api/incident/company-key/rewrap' && init.method === 'PUT') {
      const body = JSON.parse(String(init.body)) as {
        wrappings: { uuid: string; company_encrypted_passphrase: string }[];
      };
      let count = 0;
      for (const wrapping of body.wrappings) {
        const item = cases.find((candidate) => candidate.uuid === wrapping.uuid)!;
        if (item.company_key_version === 2) continue;
        item.company_encrypted_passphrase = wrapping.company_encrypted_passphrase;
        item.company_key_version = 2;
        stored.push(item.uuid);
        count += 1;
      }
      return answer(200, { stored: count, remaining: under().length });
    }
    if (url.pathname === '/api/incident/company-key/rewrap/complete') {
      completions += 1;
      if (completions === 1 && options.fileDuringFirstComplete) cases.push(options.fileDuringFirstComplete);
      const remaining = under().length;
      return remaining > 0 ? answer(409, { message: 'left', remaining }) : answer(202, { remaining: 0 });
    }
    throw new Error(`unexpected ${init.method ?? 'GET'} ${url.pathname}`);
  });
  return { stored, completions: () => completions };
}

async function setUp(count: number) {
  const [previousPair, nextPair] = await Promise.all([createCompanyKeyPair(), createCompanyKeyPair()]);
  const keys: RewrapKeys = {
    keyVersion: 2,
    publicKey: nextPair.public_key,
    current: await importCompanyPrivateKey(nextPair.secret),
    previous: await importCompanyPrivateKey(previousPair.secret),
  };
  const cases: StoredCase[] = [];
  for (let index = 0; index < count; index += 1) cases.push(await caseUnder(previousPair.public_key, index));
  return { keys, cases, previousPublicKey: previousPair.public_key };
}

async function caseUnder(companyPublicKey: string, index: number): Promise<StoredCase> {
  const { payload } = await createIncidentCredentials(companyPublicKey);
  return {
    uuid: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    credential: payload.credential,
    aes_salt: payload.aes_salt,
    aes_iv: payload.aes_iv,
    company_encrypted_passphrase: payload.company_encrypted_passphrase,
    company_key_version: null,
  };
}

const opens = (key: CryptoKey, wrapped: string) =>
  unwrapWithPrivateKey(key, wrapped, 'incident-passphrase').then(
    () => true,
    (error: unknown) => {
      if (error instanceof DecryptionError) return false;
      throw error;
    },
  );

const api = createApiClient({ getToken: () => 'staff-token' });
afterEach(() => jest.restoreAllMocks());

describe('re-wrapping the cases of a company key rotation in the browser', () => {
  it('when every case is re-wrapped page by page, then the new key opens each stored wrapping, the old one none, progress reaches the total, and a report filed meanwhile is picked up before completing', async () => {
    const { keys, cases, previousPublicKey } = await setUp(7);
    const lateComer = await caseUnder(previousPublicKey, 99);
    const service = incidentService(cases, { pageSize: 3, fileDuringFirstComplete: lateComer });
    const progress: RewrapProgress[] = [];

    const outcome = await rewrapCompanyCases(api, keys, (step) => progress.push(step));

    expect(outcome).toEqual({ kind: 'completed' });
    expect(service.stored).toHaveLength(8);
    expect(service.completions()).toBe(2);
    for (const item of cases) {
      expect(await opens(keys.current, item.company_encrypted_passphrase)).toBe(true);
      expect(await opens(keys.previous, item.company_encrypted_passphrase)).toBe(false);
    }
    expect(progress[0]).toEqual({ done: 0, total: 7 });
    expect(progress.at(-1)).toEqual({ done: 8, total: 8 });
  });

  it('when it is interrupted and started again, then it carries on with what is left, storing nothing twice', async () => {
    const { keys, cases } = await setUp(5);
    const service = incidentService(cases, { pageSize: 2 });
    const abort = new AbortController();
    await expect(
      rewrapCompanyCases(
        api,
        keys,
        (step) => {
          if (step.done >= 2) abort.abort();
        },
        abort.signal,
      ),
    ).rejects.toThrow();
    expect(service.stored.length).toBeGreaterThanOrEqual(2);
    expect(service.stored.length).toBeLessThan(5);

    expect(await rewrapCompanyCases(api, keys, () => undefined)).toEqual({ kind: 'completed' });
    expect(new Set(service.stored).size).toBe(5);
    expect(service.stored).toHaveLength(5);
  });

  it("when a wrapping opens with neither key, or a case is out of this admin's reach, then it is left as it is and the rotation does not complete", async () => {
    const { keys, cases } = await setUp(3);
    const stranger = await createCompanyKeyPair();
    const foreign = await caseUnder(stranger.public_key, 50);
    const hidden = { ...(await caseUnder(stranger.public_key, 60)), hidden: true };
    const service = incidentService([...cases, foreign], { pageSize: 10 });

    expect(await rewrapCompanyCases(api, keys, () => undefined)).toEqual({
      kind: 'blocked',
      remaining: 1,
      unopened: 1,
    });
    expect(service.stored).toHaveLength(3);
    expect(service.completions()).toBe(0);
    expect(foreign.company_key_version).toBeNull();

    jest.restoreAllMocks();
    const excluded = incidentService([hidden], { pageSize: 10 });
    expect(await rewrapCompanyCases(api, keys, () => undefined)).toEqual({
      kind: 'blocked',
      remaining: 1,
      unopened: 0,
    });
    expect(excluded.stored).toHaveLength(0);
  });
});
