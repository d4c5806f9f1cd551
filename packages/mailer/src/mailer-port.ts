import type { Port } from '@whistle/service-kit';
import type { Mailer } from './mailer';
import { openMailer } from './open-mailer';

/** SMTP when SMTP_URL is set, else `.eml` files under DATA_DIR/mail. */
export const mailerPort: Port<Mailer> = {
  name: 'mail',
  open: (config, logger) => openMailer(config, logger),
};
