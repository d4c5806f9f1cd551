import { MAX_FILE_SIZE as CONTRACT_MAX_FILE_SIZE } from '@whistle/contracts';
import { MAX_FILE_SIZE, isTooLarge } from './attachment';

describe('attachments', () => {
  it('when a file is over 25,000,000 bytes, then it is too large', () => {
    expect(MAX_FILE_SIZE).toBe(CONTRACT_MAX_FILE_SIZE);
    expect(isTooLarge({ size: 25_000_000 })).toBe(false);
    expect(isTooLarge({ size: 25_000_001 })).toBe(true);
  });
});
