import type { MailMessage, Mailer } from '../mailer';

/** A Mailer that keeps what it is asked to send, for asserting on the mail a service produced. */
export interface RecordingMailer extends Mailer {
  readonly sent: MailMessage[];
}

export function createRecordingMailer(): RecordingMailer {
  const sent: MailMessage[] = [];
  return {
    kind: 'folder',
    sent,
    async send(message) {
      sent.push(message);
    },
    async close() {},
  };
}
