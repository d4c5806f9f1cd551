import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTransport } from 'nodemailer';
import type { Logger } from '@whistle/service-kit';
import { envelopeOf } from './compose';
import type { MailMessage, Mailer } from './mailer';

/**
 * Standalone mode: each message becomes an RFC 822 `.eml` file in `dir` (any mail client opens
 * it). Files appear complete or not at all (written under a dot-name, then renamed), so a test
 * watching the folder never parses half a message. The log names the file only: a message may
 * hold a one-time link that must not end up in logs.
 */
export class FolderMailer implements Mailer {
  readonly kind = 'folder' as const;
  private readonly composer = createTransport({ streamTransport: true, buffer: true, newline: 'windows' });

  constructor(
    private readonly dir: string,
    private readonly from: string,
    private readonly logger?: Logger,
  ) {}

  async send(message: MailMessage): Promise<void> {
    const { message: eml } = await this.composer.sendMail(envelopeOf(message, this.from));
    await mkdir(this.dir, { recursive: true });
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`;
    const temporary = path.join(this.dir, `.${name}.tmp`);
    await writeFile(temporary, eml as Buffer, { mode: 0o600 });
    await rename(temporary, path.join(this.dir, name));
    this.logger?.info({ file: path.join(this.dir, name) }, 'e-mail written to folder');
  }

  async close(): Promise<void> {
    this.composer.close();
  }
}
