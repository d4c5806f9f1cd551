import type { MailMessage } from './mailer';

/** Fields every outgoing message gets from a Mailer, besides the caller's. */
export function envelopeOf(message: MailMessage, from: string) {
  return {
    from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    ...(message.html === undefined ? {} : { html: message.html }),
    // Marks the message as machine-sent, so mail servers do not answer it with vacation replies.
    headers: { 'Auto-Submitted': 'auto-generated' },
  };
}
