import { readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/** What these calls read and write of a request's Koa context (s3rver is a Koa app). */
export interface S3rverContext {
  path: string;
  method: string;
  query: Record<string, string | string[] | undefined>;
  status: number;
  type: string;
  body: unknown;
}

/** Where s3rver 3.7 keeps a bucket's multipart uploads: `<bucket>/._S3rver_uploads/<uploadId>/` with the key in `key`. */
const uploadsOf = (directory: string, bucket: string) => path.join(directory, bucket, '._S3rver_uploads');

const entities: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' };
const xml = (text: string) => text.replace(/[<>&'"]/g, (character) => entities[character]!);

/**
 * ListMultipartUploads and AbortMultipartUpload over s3rver's own storage: s3rver stores multipart uploads but answers
 * the first NotImplemented and has not the second, and no S3 server on npm has both. Without paging (every upload in
 * one answer) and without signature checks (s3rver checks them in its router, which these calls never reach).
 * An upload's `Initiated` is when its `key` file was written, at CreateMultipartUpload.
 */
export function multipartUploadCalls(directory: string) {
  return async (ctx: S3rverContext, next: () => Promise<unknown>): Promise<unknown> => {
    const [bucket, ...keyParts] = ctx.path.split('/').filter(Boolean).map(decodeURIComponent);
    if (!bucket) return next();
    if (ctx.method === 'GET' && keyParts.length === 0 && 'uploads' in ctx.query) {
      const prefix = typeof ctx.query.prefix === 'string' ? ctx.query.prefix : '';
      const ids = await readdir(uploadsOf(directory, bucket)).catch(() => [] as string[]);
      const uploads = await Promise.all(
        ids.map(async (id) => {
          const keyFile = path.join(uploadsOf(directory, bucket), id, 'key');
          return { id, key: await readFile(keyFile, 'utf8'), initiated: (await stat(keyFile)).mtime };
        }),
      );
      const listed = uploads
        .filter(({ key }) => key.startsWith(prefix))
        .sort((a, b) => a.key.localeCompare(b.key) || a.id.localeCompare(b.id))
        .map(
          ({ id, key, initiated }) =>
            `<Upload><Key>${xml(key)}</Key><UploadId>${id}</UploadId><Initiated>${initiated.toISOString()}</Initiated>` +
            '<StorageClass>STANDARD</StorageClass></Upload>',
        );
      ctx.type = 'application/xml';
      ctx.body =
        '<?xml version="1.0" encoding="UTF-8"?>\n<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
        `<Bucket>${xml(bucket)}</Bucket><Prefix>${xml(prefix)}</Prefix><MaxUploads>1000</MaxUploads>` +
        `<IsTruncated>false</IsTruncated>${listed.join('')}</ListMultipartUploadsResult>`;
      return;
    }
    const uploadId = ctx.query.uploadId;
    if (
      ctx.method === 'DELETE' &&
      keyParts.length > 0 &&
      typeof uploadId === 'string' &&
      /^[0-9a-f]+$/.test(uploadId)
    ) {
      const folder = path.join(uploadsOf(directory, bucket), uploadId);
      const key = await readFile(path.join(folder, 'key'), 'utf8').catch(() => undefined);
      if (key !== keyParts.join('/')) {
        ctx.status = 404;
        ctx.type = 'application/xml';
        ctx.body =
          '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchUpload</Code>' +
          '<Message>The specified upload does not exist.</Message></Error>';
        return;
      }
      await rm(folder, { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    return next();
  };
}
