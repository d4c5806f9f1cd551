// The public API of @whistle/mailer: the Mailer port, its folder and SMTP adapters, and the port a service declares.
// Test helpers are a separate entry: @whistle/mailer/testing.

export type { MailMessage, Mailer } from './mailer';
export { FolderMailer } from './folder-mailer';
export { SmtpMailer } from './smtp-mailer';
export { openMailer } from './open-mailer';
export { mailerPort } from './mailer-port';
