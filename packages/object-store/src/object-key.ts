import { InputError } from '@whistle/service-kit';

const segment = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;
const maxKeyLength = 512;

/**
 * Accepts `company/3b8f.../file/9c1d...`-like keys: slash-separated segments of letters, digits,
 * `.`, `_`, `-`, none starting with a dot. That rules out `..`, absolute paths, backslashes and
 * empty segments, so a key can never leave the disk store's root, and keeps the same keys valid
 * for S3. (Names starting with a dot are left to the disk store for its temporary files.)
 */
export function assertValidObjectKey(key: string): void {
  if (key.length === 0 || key.length > maxKeyLength || !key.split('/').every((part) => segment.test(part))) {
    throw new InputError('Invalid object key', { key: ['Invalid object key'] });
  }
}
