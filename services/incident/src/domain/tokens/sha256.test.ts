import { hashDiscloserAuthToken, verifyDiscloserAuthToken } from '@whistle/crypto';
import { nodeSha256 } from './sha256';

describe('nodeSha256', () => {
  const token = 'Zm9vYmFyLXRva2VuLW9mLWZvcnR5LXRocmVlLWNoYXJz';

  it('when a token is hashed, then the stored hash is the one WebCrypto makes', async () => {
    expect(await hashDiscloserAuthToken(token, nodeSha256)).toBe(await hashDiscloserAuthToken(token));
  });

  it('when a token is checked against a WebCrypto hash, then only the same token matches', async () => {
    const stored = await hashDiscloserAuthToken(token);
    expect(await verifyDiscloserAuthToken(token, stored, nodeSha256)).toBe(true);
    expect(await verifyDiscloserAuthToken(`${token}x`, stored, nodeSha256)).toBe(false);
  });
});
