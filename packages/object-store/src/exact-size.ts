import { pipeline, Transform, type Readable } from 'node:stream';
import { InputError } from '@whistle/service-kit';

function sizeMismatch(): InputError {
  return new InputError('Content size does not match the declared size', {
    size: ['Content size does not match the declared size'],
  });
}

/**
 * Passes `body` through, failing the stream as soon as it exceeds `size` or ends short of it. An
 * upload that lies about its size is refused instead of being stored truncated, or of leaving an
 * S3 request waiting for bytes that never come.
 */
export function exactSize(body: Readable, size: number): Readable {
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > size ? sizeMismatch() : null, chunk);
    },
    flush(done) {
      done(seen === size ? null : sizeMismatch());
    },
  });
  return pipeline(body, counter, () => undefined);
}
