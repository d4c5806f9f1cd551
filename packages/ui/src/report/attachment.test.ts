import { MAX_FILE_SIZE as CONTRACT_MAX_FILE_SIZE } from '@whistle/contracts';
import { ApiError } from '@whistle/api-client';
import { MAX_FILE_SIZE, isTooLarge, uploadFailureKey } from './attachment';

describe('attachments', () => {
  it('when a file is over 25,000,000 bytes, then it is too large', () => {
    expect(MAX_FILE_SIZE).toBe(CONTRACT_MAX_FILE_SIZE);
    expect(isTooLarge({ size: 25_000_000 })).toBe(false);
    expect(isTooLarge({ size: 25_000_001 })).toBe(true);
  });

  it('when the file service refuses an upload, then the words say why: a limit, too many, or a failure', () => {
    const refused = (status: number) => new ApiError('/api/incident/file/', status, '', { message: 'x' });
    expect(uploadFailureKey(refused(409))).toBe('files.limitReached');
    expect(uploadFailureKey(refused(429))).toBe('files.tooManyUploads');
    expect(uploadFailureKey(refused(400))).toBe('files.uploadFailed');
    expect(uploadFailureKey(new TypeError('Network error'))).toBe('files.uploadFailed');
  });
});
