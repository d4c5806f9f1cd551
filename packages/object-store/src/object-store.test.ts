import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createRecordingLogger } from '@whistle/service-kit/testing';
import { InputError, NotFoundError, loadConfig, platformConfigSchema } from '@whistle/service-kit';
import { startS3Server, type TestS3Server } from '@whistle/test-support';
import { DiskObjectStore } from './disk-object-store';
import type { ObjectStore } from './object-store';
import { objectStorePort } from './object-store-port';
import { openObjectStore } from './open-object-store';

/** A stream of `size` random bytes made chunk by chunk, hashing as it goes: it never exists whole. */
function randomStream(size: number): { stream: Readable; digest: () => string } {
  const hash = createHash('sha256');
  let remaining = size;
  const stream = Readable.from(
    (function* () {
      while (remaining > 0) {
        const chunk = randomBytes(Math.min(64 * 1024, remaining));
        remaining -= chunk.length;
        hash.update(chunk);
        yield chunk;
      }
    })(),
  );
  return { stream, digest: () => hash.digest('hex') };
}

async function sha256Of(stream: Readable): Promise<{ digest: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { digest: hash.digest('hex'), size };
}

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

// Above S3's 5 MiB part size, so an upload of unknown length takes the multipart path.
const largeSize = 5 * 1024 * 1024 + 300 * 1024;

interface Fixture {
  store: ObjectStore;
  dataDir: string;
  stop: () => Promise<void>;
}

async function diskFixture(): Promise<Fixture> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'objects-'));
  const store = await openObjectStore({ DATA_DIR: dataDir, S3_REGION: 'us-east-1' });
  return { store, dataDir, stop: () => rm(dataDir, { recursive: true, force: true }) };
}

async function s3Fixture(): Promise<Fixture> {
  const s3 = await startS3Server();
  const store = await openObjectStore({
    DATA_DIR: '/nonexistent',
    S3_ENDPOINT: s3.endpoint,
    S3_REGION: 'us-east-1',
    S3_BUCKET: 'whistle-files',
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
  });
  return {
    store,
    dataDir: '',
    stop: async () => {
      await store.close();
      await s3.stop();
    },
  };
}

describe.each([
  ['disk', 'disk', diskFixture],
  ['S3 (s3rver)', 's3', s3Fixture],
] as const)('ObjectStore on %s', (_label, kind, makeFixture) => {
  let fixture: Fixture;
  beforeAll(async () => {
    fixture = await makeFixture();
  });
  afterAll(() => fixture.stop());

  it('when opened from configuration, then the expected adapter is chosen', () => {
    expect(fixture.store.kind).toBe(kind);
  });

  it('when a large stream of unknown length is stored, then the bytes read back are exactly those written', async () => {
    const { stream, digest } = randomStream(largeSize);
    await fixture.store.put('company/c1/file/large-unknown', stream, { contentType: 'application/octet-stream' });
    expect(await sha256Of(await fixture.store.get('company/c1/file/large-unknown'))).toEqual({
      digest: digest(),
      size: largeSize,
    });
  });

  it('when a large stream of known length is stored, then the bytes read back are exactly those written', async () => {
    const { stream, digest } = randomStream(largeSize);
    await fixture.store.put('company/c1/file/large-known', stream, { size: largeSize });
    expect(await sha256Of(await fixture.store.get('company/c1/file/large-known'))).toEqual({
      digest: digest(),
      size: largeSize,
    });
  });

  it.each([
    ['shorter', 1000],
    ['longer', 3000],
  ])('when a stream is %s than its declared size, then put rejects and nothing is stored', async (_case, actual) => {
    await expect(
      fixture.store.put('company/c1/lying', randomStream(actual).stream, { size: 2000 }),
    ).rejects.toBeInstanceOf(InputError);
    await expect(fixture.store.exists('company/c1/lying')).resolves.toBe(false);
  });

  it.each([
    ['known', 4096],
    ['unknown', undefined],
  ])(
    'when a source stream of %s length fails midway, then put rejects with its error and nothing is stored',
    async (_case, size) => {
      const failing = Readable.from(
        (async function* () {
          yield Buffer.alloc(1024, 1);
          throw new Error('upload interrupted');
        })(),
      );
      await expect(fixture.store.put('company/c1/broken', failing, { size })).rejects.toThrow('upload interrupted');
      await expect(fixture.store.exists('company/c1/broken')).resolves.toBe(false);
    },
  );

  it('when a buffer is stored and overwritten, then the latest content is read', async () => {
    await fixture.store.put('company/c1/note', Buffer.from('first'));
    await fixture.store.put('company/c1/note', Buffer.from('second version'));
    expect(await text(await fixture.store.get('company/c1/note'))).toBe('second version');
  });

  it('when a key is missing, then get throws NotFoundError and exists is false', async () => {
    await expect(fixture.store.get('company/c1/missing')).rejects.toBeInstanceOf(NotFoundError);
    await expect(fixture.store.exists('company/c1/missing')).resolves.toBe(false);
  });

  it('when an object is deleted, then it no longer exists and deleting again is harmless', async () => {
    await fixture.store.put('company/c1/to-delete', Buffer.from('x'));
    await expect(fixture.store.exists('company/c1/to-delete')).resolves.toBe(true);
    await fixture.store.delete('company/c1/to-delete');
    await expect(fixture.store.exists('company/c1/to-delete')).resolves.toBe(false);
    await expect(fixture.store.delete('company/c1/to-delete')).resolves.toBeUndefined();
  });

  it.each(['../outside', '/etc/passwd', 'a/../../b', 'a//b', '.hidden', 'a/./b', 'a\\..\\b', '', 'a/'])(
    'when the key is %j, then every operation rejects it as invalid',
    async (key) => {
      await expect(fixture.store.put(key, Buffer.from('x'))).rejects.toBeInstanceOf(InputError);
      await expect(fixture.store.get(key)).rejects.toBeInstanceOf(InputError);
      await expect(fixture.store.exists(key)).rejects.toBeInstanceOf(InputError);
      await expect(fixture.store.delete(key)).rejects.toBeInstanceOf(InputError);
    },
  );
});

describe('DiskObjectStore', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'objects-'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('when the source stream fails midway, then no temporary file remains', async () => {
    const store = new DiskObjectStore(root);
    const failing = Readable.from(
      (async function* () {
        yield Buffer.alloc(1024, 1);
        throw new Error('upload interrupted');
      })(),
    );
    await expect(store.put('company/c1/broken', failing)).rejects.toThrow('upload interrupted');
    expect(await readdir(path.join(root, '.tmp'))).toEqual([]);
  });

  it('when a stored object replaces an earlier one, then a reader holding the earlier stream still reads it whole', async () => {
    const store = new DiskObjectStore(root);
    await store.put('k', Buffer.from('old content'));
    const reader = await store.get('k');
    await store.put('k', Buffer.from('new content'));
    expect(await text(reader)).toBe('old content');
    expect(await text(await store.get('k'))).toBe('new content');
  });
});

describe('openObjectStore on S3', () => {
  it('when the bucket already exists, then opening again succeeds and sees the same objects', async () => {
    const s3 = await startS3Server();
    const config = {
      DATA_DIR: '/nonexistent',
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: 'us-east-1',
      S3_BUCKET: 'reopened',
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    };
    const first = await openObjectStore(config);
    await first.put('kept', Buffer.from('still here'));
    await first.close();
    const second = await openObjectStore(config);
    try {
      expect(await text(await second.get('kept'))).toBe('still here');
    } finally {
      await second.close();
      await s3.stop();
    }
  });
});

describe('openObjectStore on S3 without static keys', () => {
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
  afterEach(() => {
    for (const [key, value] of [
      ['AWS_ACCESS_KEY_ID', saved.id],
      ['AWS_SECRET_ACCESS_KEY', saved.secret],
    ] as const)
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
  });
  const open = (s3: TestS3Server) =>
    openObjectStore({ DATA_DIR: '/nonexistent', S3_ENDPOINT: s3.endpoint, S3_REGION: 'us-east-1', S3_BUCKET: 'chain' });

  it('when the AWS default credential chain has the keys (here its AWS_* variables), then the store signs with them', async () => {
    const s3 = await startS3Server();
    process.env.AWS_ACCESS_KEY_ID = s3.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = s3.secretAccessKey;
    const store = await open(s3);
    try {
      await store.put('k', Buffer.from('signed by the chain'));
      expect(await text(await store.get('k'))).toBe('signed by the chain');
    } finally {
      await store.close();
      await s3.stop();
    }
  });

  it('when the chain yields keys the store does not know, then opening fails (the chain, not a fixed key, signs)', async () => {
    const s3 = await startS3Server();
    process.env.AWS_ACCESS_KEY_ID = 'UNKNOWN';
    process.env.AWS_SECRET_ACCESS_KEY = 'UNKNOWN';
    try {
      await expect(open(s3)).rejects.toThrow();
    } finally {
      await s3.stop();
    }
  });

  it('when only one static key is given, then opening is refused', async () => {
    await expect(
      openObjectStore({ DATA_DIR: '/nonexistent', S3_REGION: 'us-east-1', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'id' }),
    ).rejects.toThrow('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together');
  });
});

describe('objectStorePort', () => {
  it('when S3 is configured, then the port opens the S3 adapter and reports it ready', async () => {
    const s3 = await startS3Server();
    const config = loadConfig(platformConfigSchema, {
      DATA_DIR: '/nonexistent',
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: 'port-test',
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    });
    const store = await objectStorePort.open(config, createRecordingLogger());
    try {
      expect(store.kind).toBe('s3');
      // Ready means the store answers: the probe key itself need not exist.
      await expect(objectStorePort.ready!(store)).resolves.toBeUndefined();
    } finally {
      await store.close();
      await s3.stop();
    }
  });

  it('when files are on a disk with room, then the port opens the disk adapter and reports it ready', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'objects-ready-'));
    try {
      const store = await objectStorePort.open(
        loadConfig(platformConfigSchema, { DATA_DIR: dataDir }),
        createRecordingLogger(),
      );
      expect(store.kind).toBe('disk');
      await expect(objectStorePort.ready!(store)).resolves.toBeUndefined();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('when the S3 server cannot be reached, then opening the port fails', async () => {
    const config = loadConfig(platformConfigSchema, {
      // Nothing listens on port 1: the bucket check fails.
      S3_ENDPOINT: 'http://127.0.0.1:1',
      S3_BUCKET: 'unreachable',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
    });
    await expect(objectStorePort.open(config, createRecordingLogger())).rejects.toThrow();
  });
});
