import { solveProofOfWork } from '@whistle/crypto';
import type { Database } from '@whistle/service-kit';
import { createProofOfWork, difficultyFor, type ProofOfWorkPolicy } from './proof-of-work';

const policy: ProofOfWorkPolicy = {
  freeReportsPerHour: 30,
  baseDifficulty: 8,
  maxDifficulty: 14,
  challengeTtlMs: 60_000,
};

describe('the difficulty a company’s report volume asks', () => {
  test('nothing at normal volume, the base past it, one bit per doubling, capped', () => {
    expect(difficultyFor(0, policy)).toBe(0);
    expect(difficultyFor(29, policy)).toBe(0);
    expect(difficultyFor(30, policy)).toBe(8);
    expect(difficultyFor(59, policy)).toBe(8);
    expect(difficultyFor(60, policy)).toBe(9);
    expect(difficultyFor(240, policy)).toBe(11);
    expect(difficultyFor(1920, policy)).toBe(14);
    expect(difficultyFor(1_000_000, policy)).toBe(14);
  });
});

describe('challenges', () => {
  /** The company `acme` with `reports` in the last hour; spent challenges kept as the table would. */
  function fakeDb(reports: number): Database {
    const spent = new Map<string, string | null>();
    return {
      query: async (sql: string, params: unknown[] = []) => {
        if (sql.includes('from incident.company'))
          return { rows: params[0] === 'acme' ? [{ id: 'c', reports }] : [], rowCount: 1 };
        const [id, key] = params as [string, string | null];
        const before = spent.has(id);
        if (!before) spent.set(id, key);
        return { rows: [{ spent_before: before, idempotency_key_hash: spent.get(id) }], rowCount: 1 };
      },
    } as unknown as Database;
  }
  const pow = (reports: number) =>
    createProofOfWork({ db: fakeDb(reports), secret: 'replica secret', policy: { ...policy, baseDifficulty: 2 } });
  afterEach(() => jest.useRealTimers());

  test('when a solved challenge is sent after its expiry, then it is refused', async () => {
    const intake = pow(30);
    const { challenge, difficulty } = await intake.issue('acme');
    const nonce = await solveProofOfWork(challenge, difficulty);
    jest.useFakeTimers({ now: Date.now() + policy.challengeTtlMs + 1000 });
    await expect(intake.check('acme', { challenge, nonce })).rejects.toMatchObject({
      status: 400,
      errors: { proof_of_work: ['Challenge expired'] },
    });
  });

  test('when another replica (same secret) checks a challenge, then it passes; another deployment’s is refused', async () => {
    const { challenge, difficulty } = await pow(30).issue('acme');
    const nonce = await solveProofOfWork(challenge, difficulty);
    await expect(pow(30).check('acme', { challenge, nonce })).resolves.toBeUndefined();
    const elsewhere = createProofOfWork({ db: fakeDb(30), secret: 'other secret', policy });
    await expect(elsewhere.check('acme', { challenge, nonce })).rejects.toMatchObject({
      errors: { proof_of_work: ['Invalid challenge'] },
    });
  });

  test('when the volume outgrew a challenge by more than two bits, then a new one is asked for', async () => {
    const { challenge, difficulty } = await pow(30).issue('acme');
    const nonce = await solveProofOfWork(challenge, difficulty);
    // 30 → 2 bits; 480 reports → 2 + 4 = 6 bits.
    await expect(pow(480).check('acme', { challenge, nonce })).rejects.toMatchObject({
      errors: { proof_of_work: ['Challenge too easy for the current volume: solve a new one'] },
    });
  });

  test('when the company is unknown, then no challenge is issued (404)', async () => {
    await expect(pow(0).issue('nobody')).rejects.toMatchObject({ status: 404 });
  });
});

describe('at normal volume', () => {
  test('when a report comes with or without a solution, then it is not looked at, and one sent twice passes twice', async () => {
    const db = {
      query: async () => ({ rows: [{ id: 'c', reports: 0 }], rowCount: 1 }),
    } as unknown as Database;
    const intake = createProofOfWork({ db, secret: 's', policy });
    const { challenge } = await intake.issue('acme');
    await expect(intake.check('acme', undefined)).resolves.toBeUndefined();
    await expect(intake.check('acme', { challenge, nonce: '0' })).resolves.toBeUndefined();
    await expect(intake.check('acme', { challenge, nonce: '0' })).resolves.toBeUndefined();
  });
});
