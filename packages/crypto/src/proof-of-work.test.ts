import { leadingZeroBits, solveProofOfWork, verifyProofOfWork } from './proof-of-work';

describe('proof of work', () => {
  test('leading zero bits are counted across bytes', () => {
    expect(leadingZeroBits(new Uint8Array([0xff]))).toBe(0);
    expect(leadingZeroBits(new Uint8Array([0x01]))).toBe(7);
    expect(leadingZeroBits(new Uint8Array([0x00, 0x20]))).toBe(10);
    expect(leadingZeroBits(new Uint8Array([0, 0]))).toBe(16);
  });

  test('when a nonce is found for a challenge, then it verifies at that difficulty and not for another challenge', async () => {
    const nonce = await solveProofOfWork('challenge-a', 6);
    expect(await verifyProofOfWork('challenge-a', nonce, 6)).toBe(true);
    // One in 64 nonces passes by chance: try a few other challenges, not all of them may.
    const elsewhere = await Promise.all(['b', 'c', 'd', 'e'].map((c) => verifyProofOfWork(`challenge-${c}`, nonce, 6)));
    expect(elsewhere).toContain(false);
  });

  test('when the work is not done, then the nonce does not verify', async () => {
    // The first nonce that solves 6 bits is not known in advance: the one before it failed, by construction.
    const nonce = Number(await solveProofOfWork('challenge-f', 6));
    if (nonce > 0) expect(await verifyProofOfWork('challenge-f', String(nonce - 1), 6)).toBe(false);
    expect(await verifyProofOfWork('challenge-f', 'abc', 6)).toBe(false);
    expect(await verifyProofOfWork('challenge-f', '007', 6)).toBe(false);
    expect(await verifyProofOfWork('challenge-f', '0', 99)).toBe(false);
  });

  test('when no work is asked, then any well-formed nonce verifies', async () => {
    expect(await solveProofOfWork('challenge-g', 0)).toBe('0');
    expect(await verifyProofOfWork('challenge-g', '0', 0)).toBe(true);
  });

  test('when the solver is aborted, then it stops', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(solveProofOfWork('challenge-h', 20, { signal: controller.signal })).rejects.toThrow();
  });
});
