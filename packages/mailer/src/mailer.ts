/** An outgoing e-mail. Never carries report content, passphrases, keys or tokens other than a link's one-time token. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** The Mailer port. Two adapters: a folder of .eml files (standalone) and SMTP via nodemailer. */
export interface Mailer {
  readonly kind: 'folder' | 'smtp';
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}
