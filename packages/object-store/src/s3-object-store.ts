import { Readable } from 'node:stream';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  AbortMultipartUploadCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { NotFoundError, type Logger } from '@whistle/service-kit';
import { exactSize } from './exact-size';
import { assertValidObjectKey } from './object-key';
import type { ObjectStore } from './object-store';
import { isStoreUnavailable, OutageTracker } from './store-unavailable';

export interface S3ObjectStoreOptions {
  /** Any S3 API; absent: AWS itself. */
  endpoint?: string;
  region: string;
  bucket: string;
  /** Static keys, both or neither; neither: the AWS SDK's default credential chain (web identity, instance profile, AWS_* env). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Where an outage of the store is logged (once when it starts, once when it ends). */
  logger?: Logger;
  /**
   * What the keys this store writes begin with: only multipart uploads under it are swept as abandoned. Empty (the
   * default): the whole bucket, which belongs to the service.
   */
  keyPrefix?: string;
  /** How old a multipart upload must be to count as abandoned; ABANDONED_UPLOAD_AGE_MS by default. */
  abandonedUploadAgeMs?: number;
}

/**
 * A request lasts 10 minutes at most (REQUEST_TIMEOUT_MS of service-kit), and its multipart upload with it: one
 * started 30 minutes ago is under way in no replica, its parts abandoned (the store was down when its abort was sent,
 * or the process was killed).
 */
export const ABANDONED_UPLOAD_AGE_MS = 30 * 60 * 1000;

/**
 * A store that does not answer (a black-holed network) fails the request instead of holding it and its
 * connection without end: the connection within 5 s, and any 60 s without a byte either way.
 */
const CONNECTION_TIMEOUT_MS = 5_000;
const SOCKET_TIMEOUT_MS = 60_000;

/** S3's smallest multipart part; also the most a streamed upload holds in memory here. */
const partSize = 5 * 1024 * 1024;

function isNotFound(error: unknown): boolean {
  const failure = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return (
    failure.$metadata?.httpStatusCode === 404 ||
    failure.name === 'NoSuchKey' ||
    failure.name === 'NotFound' ||
    failure.name === 'NoSuchBucket'
  );
}

/**
 * Objects in an S3 bucket (cluster mode). The SDK's default checksums are switched off on purpose:
 * with them, a streamed PutObject is sent with aws-chunked framing that S3-compatible servers
 * (s3rver among them) store as part of the object, silently corrupting it. Path-style addressing
 * works with every S3 API, virtual-host style only with some.
 */
export class S3ObjectStore implements ObjectStore {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly outages: OutageTracker;
  private readonly logger?: Logger;
  private readonly keyPrefix: string;
  private readonly abandonedUploadAgeMs: number;
  private sweeping?: Promise<void>;
  private sweepAgain?: NodeJS.Timeout;
  private closed = false;

  constructor({
    endpoint,
    region,
    bucket,
    accessKeyId,
    secretAccessKey,
    logger,
    keyPrefix = '',
    abandonedUploadAgeMs = ABANDONED_UPLOAD_AGE_MS,
  }: S3ObjectStoreOptions) {
    this.bucket = bucket;
    this.logger = logger;
    this.keyPrefix = keyPrefix;
    this.abandonedUploadAgeMs = abandonedUploadAgeMs;
    this.outages = new OutageTracker(
      {
        down: 'The object store (S3) is unreachable; uploads and downloads answer 503 until it is back',
        up: 'The object store (S3) is reachable again',
      },
      isStoreUnavailable,
      logger,
      // Uploads cut by the outage could not be aborted while it lasted.
      { onRecovered: () => void this.sweepAbandonedUploads() },
    );
    this.client = new S3Client({
      endpoint,
      region,
      credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
      forcePathStyle: true,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // `requestTimeout` is the socket's idle timeout, not a bound on the whole request.
      requestHandler: { connectionTimeout: CONNECTION_TIMEOUT_MS, requestTimeout: SOCKET_TIMEOUT_MS },
    });
  }

  /** Creates the bucket when it does not exist yet (first start of a fresh environment). */
  async ensureBucket(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      if (!isNotFound(error)) throw error;
      await this.client.send(new CreateBucketCommand({ Bucket: this.bucket })).catch((creation: unknown) => {
        // Another replica starting at the same time may have won the race.
        if ((creation as { name?: string }).name !== 'BucketAlreadyOwnedByYou') throw creation;
      });
    }
  }

  async put(
    key: string,
    body: Readable | Buffer,
    options: { size?: number; contentType?: string } = {},
  ): Promise<void> {
    assertValidObjectKey(key);
    const params = { Bucket: this.bucket, Key: key, ContentType: options.contentType };
    if (Buffer.isBuffer(body)) {
      await this.outages.run(() =>
        this.client.send(new PutObjectCommand({ ...params, Body: body, ContentLength: body.length })),
      );
      return;
    }
    // Streams go up one part at a time (multipart above one part, a single complete PutObject
    // below), so at most one part sits in memory, and a source that fails or lies about its size
    // never reaches the server as a truncated request: some S3 servers (s3rver among them) store
    // whatever an aborted PutObject had sent.
    const source = options.size === undefined ? body : exactSize(body, options.size);
    // On failure the multipart upload is aborted (leavePartsOnError: false); when the store is down the abort
    // fails too, and the bucket's AbortIncompleteMultipartUpload rule removes the parts (docs/operations.md).
    await this.outages.run(() =>
      new Upload({
        client: this.client,
        params: { ...params, Body: source },
        partSize,
        queueSize: 1,
        leavePartsOnError: false,
      }).done(),
    );
  }

  async get(key: string): Promise<Readable> {
    assertValidObjectKey(key);
    try {
      const answer = await this.outages.run(() =>
        this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key })),
      );
      return this.watched(answer.Body as Readable);
    } catch (error) {
      if (isNotFound(error)) throw new NotFoundError();
      throw error;
    }
  }

  /**
   * The object's stream, whose failure mid-way (S3 gone after the first bytes) is the store's outage like any other:
   * logged once, a 503 for whoever reads it (the download itself can only be cut, its headers being out).
   */
  private watched(body: Readable): Readable {
    const outages = this.outages;
    return Readable.from(
      (async function* () {
        try {
          // A reader that stops early (the client left) ends this loop, which destroys the S3 stream.
          for await (const chunk of body) yield chunk as Buffer;
        } catch (error) {
          throw outages.failed(error);
        }
      })(),
      { objectMode: false },
    );
  }

  async delete(key: string): Promise<void> {
    assertValidObjectKey(key);
    await this.outages.run(() => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })));
  }

  async exists(key: string): Promise<boolean> {
    assertValidObjectKey(key);
    try {
      await this.outages.run(() => this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key })));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  /** The store answers: the probe key itself need not exist. */
  async ready(): Promise<void> {
    await this.exists('readiness-probe');
  }

  /**
   * Aborts the abandoned multipart uploads under keyPrefix (at start, and when the store is back after an outage),
   * then once more when those too young to tell now are old enough: their parts are billed and never become an
   * object. In the background; a failure is logged, and the bucket's lifecycle rule remains the backstop.
   */
  sweepAbandonedUploads({ again = true }: { again?: boolean } = {}): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.sweeping ??= this.abortAbandonedUploads()
      .then((aborted) => {
        if (aborted > 0) this.logger?.info({ aborted }, 'Aborted the multipart uploads left by uploads cut short');
      })
      .catch((error: unknown) => {
        const { name, message } = error as { name?: unknown; message?: unknown };
        this.logger?.warn(
          { code: name, reason: message },
          'Could not abort abandoned multipart uploads; will try again',
        );
      })
      .finally(() => (this.sweeping = undefined));
    if (again) {
      clearTimeout(this.sweepAgain);
      this.sweepAgain = setTimeout(() => void this.sweepAbandonedUploads({ again: false }), this.abandonedUploadAgeMs);
      this.sweepAgain.unref();
    }
    return this.sweeping;
  }

  private async abortAbandonedUploads(): Promise<number> {
    const startedBefore = Date.now() - this.abandonedUploadAgeMs;
    let aborted = 0;
    let markers: { KeyMarker?: string; UploadIdMarker?: string } = {};
    for (;;) {
      const page = await this.client.send(
        new ListMultipartUploadsCommand({ Bucket: this.bucket, Prefix: this.keyPrefix || undefined, ...markers }),
      );
      for (const { Key, UploadId, Initiated } of page.Uploads ?? []) {
        if (!Key || !UploadId || !Initiated || Initiated.getTime() > startedBefore) continue;
        await this.client
          .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key, UploadId }))
          .then(() => aborted++)
          .catch((error: unknown) => {
            // Another replica's sweep was first.
            if ((error as { name?: string }).name !== 'NoSuchUpload') throw error;
          });
      }
      if (!page.IsTruncated || (!page.NextKeyMarker && !page.NextUploadIdMarker)) return aborted;
      markers = { KeyMarker: page.NextKeyMarker, UploadIdMarker: page.NextUploadIdMarker };
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.sweepAgain);
    await this.sweeping;
    this.client.destroy();
  }
}
