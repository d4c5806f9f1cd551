import { once } from 'node:events';
import { Transform, type Readable, type Writable } from 'node:stream';
import { parser } from 'stream-json';
import { InputError, PayloadTooLargeError } from '@whistle/service-kit';
import {
  MAX_CIPHERTEXT_BYTES,
  MAX_FILE_SIZE_MESSAGE,
  type ReceivedUpload,
  type UploadReader,
} from '../../domain/upload/upload-file.use-case';

/** Longest value accepted for a field other than `content` (the encrypted file name is the largest). */
const maxFieldChars = 8192;
/** Room for the other fields of the JSON document besides the base64 content. */
const METADATA_ALLOWANCE = 64 * 1024;
/** The longest upload body: base64 of the largest ciphertext, plus metadata. */
export const MAX_UPLOAD_BODY_BYTES = Math.ceil(MAX_CIPHERTEXT_BYTES / 3) * 4 + METADATA_ALLOWANCE;

export interface UploadLimits {
  /** Bytes of request body (the JSON text) read at most. */
  maxBodyBytes: number;
  /** Bytes of decoded `content` (the ciphertext) accepted at most. */
  maxContentBytes: number;
}

interface Token {
  name: string;
  value?: string;
}

const malformed = (message = 'Malformed JSON body') => new InputError(message);
const invalidContent = () =>
  new InputError('Invalid request body', { content: ['Invalid file content: base64 of the encrypted file expected'] });
const tooLarge = () => new PayloadTooLargeError(MAX_FILE_SIZE_MESSAGE);

/** Counts body bytes and fails as soon as there are more than `max`: an endless body is cut, not read. */
function byteLimit(max: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > max ? tooLarge() : null, chunk);
    },
  });
}

/** Standard base64 decoded piece by piece: whole 4-character groups go out, the rest waits for the next piece. */
class Base64Decoder {
  private carry = '';
  private padded = false;

  decode(piece: string): Buffer {
    if (this.padded && /[^=]/.test(piece)) throw invalidContent();
    const text = this.carry + piece;
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw invalidContent();
    if (text.includes('=')) this.padded = true;
    const whole = text.length - (text.length % 4);
    this.carry = text.slice(whole);
    return Buffer.from(text.slice(0, whole), 'base64');
  }

  end(): void {
    if (this.carry.length > 0) throw invalidContent();
  }
}

/**
 * The upload's wire format: reads the request's JSON object as it streams. `content` (base64 of the
 * ciphertext) is decoded and written to the sink `openContent` returns, with backpressure, so the
 * file never sits whole in memory; the other fields are small and collected for validation. Throws
 * InputError (400) for a body that is not a flat JSON object of this shape, PayloadTooLargeError
 * (413) past the limits.
 */
export async function parseUploadBody(
  body: Readable,
  openContent: () => Writable,
  limits: UploadLimits,
): Promise<ReceivedUpload> {
  const counter = byteLimit(limits.maxBodyBytes);
  const tokens: Transform = parser({
    packKeys: true,
    streamKeys: false,
    packStrings: false,
    packNumbers: true,
    streamNumbers: false,
  });
  // Piped by hand, not with pipeline(): on failure the request must stay open for the error answer.
  const fail = (error: Error) => tokens.destroy(error);
  body.on('error', fail);
  counter.on('error', fail);
  body.pipe(counter).pipe(tokens);

  const fields: Record<string, unknown> = {};
  let depth = 0;
  let key: string | undefined;
  let text: string | undefined;
  let sink: Writable | undefined;
  let decoder: Base64Decoder | undefined;
  let hadContent = false;
  let contentBytes = 0;
  let firstContentByte: number | undefined;

  const write = async (bytes: Buffer) => {
    if (bytes.length === 0) return;
    contentBytes += bytes.length;
    if (contentBytes > limits.maxContentBytes) throw tooLarge();
    firstContentByte ??= bytes[0];
    // A sink the store destroyed (it failed) emits no 'drain' again: waiting for one would hang the upload.
    if (sink!.destroyed) throw sink!.errored ?? new Error('The object store stopped the upload');
    if (!sink!.write(bytes)) await once(sink!, 'drain');
  };
  const setField = (value: unknown) => {
    if (depth !== 1 || key === undefined) throw malformed('The upload body must be one flat JSON object');
    if (key === 'content') throw invalidContent();
    fields[key] = value;
  };

  try {
    for await (const token of tokens as AsyncIterable<Token>) {
      switch (token.name) {
        case 'startObject':
        case 'startArray':
          if (depth > 0 || token.name === 'startArray') throw malformed('The upload body must be one flat JSON object');
          depth += 1;
          break;
        case 'endObject':
          depth -= 1;
          break;
        case 'keyValue':
          key = token.value!;
          if (Object.hasOwn(fields, key) || (key === 'content' && hadContent))
            throw new InputError('Invalid request body', { [key]: ['Given twice'] });
          break;
        case 'startString':
          if (depth === 1 && key === 'content') {
            hadContent = true;
            decoder = new Base64Decoder();
            sink = openContent();
          } else {
            text = '';
          }
          break;
        case 'stringChunk':
          if (decoder) await write(decoder.decode(token.value!));
          else if ((text = text! + token.value!).length > maxFieldChars)
            throw new InputError('Invalid request body', { [key ?? 'non_field_errors']: ['Too long'] });
          break;
        case 'endString':
          if (decoder) {
            decoder.end();
            decoder = undefined;
            sink!.end();
          } else {
            setField(text);
            text = undefined;
          }
          break;
        case 'numberValue':
          setField(Number(token.value));
          break;
        case 'nullValue':
          setField(null);
          break;
        case 'trueValue':
        case 'falseValue':
          setField(token.name === 'trueValue');
          break;
      }
    }
  } catch (error) {
    body.unpipe(counter);
    counter.destroy();
    tokens.destroy();
    if (error instanceof Error && /^Parser (cannot parse input|has expected)/.test(error.message)) throw malformed();
    throw error;
  } finally {
    body.off('error', fail);
  }
  return { fields, hadContent, contentBytes, firstContentByte };
}

/** The use case's reader of an upload sent as the body of a request. */
export function uploadBodyReader(body: Readable): UploadReader {
  return (openContent, maxContentBytes) =>
    parseUploadBody(body, openContent, { maxBodyBytes: MAX_UPLOAD_BODY_BYTES, maxContentBytes });
}
