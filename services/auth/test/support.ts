import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MailMessage, Mailer } from '@whistle/mailer';
import { DiskObjectStore, type ObjectStore } from '@whistle/object-store';
import { createRecordingMailer } from '@whistle/mailer/testing';
import type { WhistleService } from '@whistle/service-kit';
import { serveService, waitFor } from '@whistle/service-kit/testing';
import { authConfigSchema } from '../src/config';
import { createAuthService, type AuthDependencies } from '../src/service';

export interface RunningAuth {
  baseUrl: string;
  service: WhistleService;
  /** Every mail the service sent (whatever its mailer), for links a test follows. */
  readonly mails: readonly MailMessage[];
  /**
   * The first mail to `to` whose subject matches, among those sent from the `since`-th on (`mails.length` before
   * the request that sends it), once it is sent: mail leaves after the answer.
   */
  mailTo(to: string, subject: RegExp, since?: number): Promise<MailMessage>;
  close(): Promise<void>;
}

/** One signing key per test process, as a Secret would provide it. */
export const testSigningKey = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

/**
 * The auth service served on a loopback port as `runService` serves it, on the given dependencies;
 * without a mailer, its mail is kept by a recording one; without an object store, logos go to a
 * temporary folder removed at close.
 */
export async function startAuth(
  deps: Omit<AuthDependencies, 'mailer' | 'objects'> & { mailer?: Mailer; objects?: ObjectStore },
  env: Record<string, string> = {},
): Promise<RunningAuth> {
  const config = authConfigSchema.parse({
    KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    TOKEN_SIGNING_KEY: testSigningKey,
    PUBLIC_URL: 'https://whistle.example',
    ...env,
  });
  const folder = deps.objects ? undefined : await mkdtemp(path.join(tmpdir(), 'whistle-auth-objects-'));
  const objects = deps.objects ?? new DiskObjectStore(folder!);
  const inner = deps.mailer ?? createRecordingMailer();
  const mails: MailMessage[] = [];
  const mailer: Mailer = {
    kind: inner.kind,
    async send(message) {
      await inner.send(message);
      mails.push(message);
    },
    close: () => inner.close(),
  };
  const service = createAuthService({ ...deps, objects, mailer }, config);
  // Loopback is the trusted proxy: tests name distinct clients with X-Forwarded-For, as an ingress would.
  const served = await serveService(service, deps.logger, { trustProxy: 'loopback' });
  return {
    service,
    baseUrl: served.baseUrl,
    mails,
    mailTo: (to, subject, since = 0) =>
      waitFor(async () => mails.slice(since).find((mail) => mail.to === to && subject.test(mail.subject)), {
        what: `a mail to ${to} matching ${subject}`,
      }),
    async close() {
      await served.close();
      if (folder) await rm(folder, { recursive: true, force: true });
    },
  };
}
