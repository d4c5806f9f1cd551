import { createTransport } from 'nodemailer';
import { envelopeOf } from './compose';
import type { MailMessage, Mailer } from './mailer';

/**
 * Cluster mode: delivery through an SMTP relay given as a URL (`smtp://user:pass@host:587`,
 * `smtps://...` for implicit TLS; nodemailer upgrades `smtp://` with STARTTLS when offered).
 * Pooled, so a burst of notifications reuses connections.
 */
export class SmtpMailer implements Mailer {
  readonly kind = 'smtp' as const;
  private readonly transport;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    const url = new URL(smtpUrl);
    url.searchParams.set('pool', 'true');
    this.transport = createTransport(url.toString());
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail(envelopeOf(message, this.from));
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}
