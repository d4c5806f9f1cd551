import path from 'node:path';
import type { Logger, PlatformConfig } from '@whistle/service-kit';
import { FolderMailer } from './folder-mailer';
import type { Mailer } from './mailer';
import { SmtpMailer } from './smtp-mailer';

/** SMTP when SMTP_URL is set, else `.eml` files under DATA_DIR/mail. */
export function openMailer(
  config: Pick<PlatformConfig, 'DATA_DIR' | 'SMTP_URL' | 'MAIL_FROM'>,
  logger?: Logger,
): Mailer {
  if (config.SMTP_URL) return new SmtpMailer(config.SMTP_URL, config.MAIL_FROM);
  return new FolderMailer(path.join(config.DATA_DIR, 'mail'), config.MAIL_FROM, logger);
}
