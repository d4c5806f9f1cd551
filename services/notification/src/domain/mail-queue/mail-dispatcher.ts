import type { Mailer } from '@whistle/mailer';
import { mailsSent, type Database, type PeriodicJobWords } from '@whistle/service-kit';
import { mailQueueRepository } from '../../data-access/mail-queue.repository';

export interface MailDispatchDependencies {
  db: Database;
  mailer: Mailer;
  /** Mails claimed per round. */
  batchSize?: number;
}

/** How often the queue is looked at. */
export const MAIL_DISPATCH_INTERVAL_MS = 1000;

/**
 * What the log says of a refused send: the mail server's error code and reply code, never the error itself,
 * whose text and fields may name the recipient.
 */
function sendFailure(error: unknown): Error {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  const detail = [code, responseCode].filter((part) => typeof part === 'string' || typeof part === 'number');
  return new Error(`The mail server did not take a mail${detail.length > 0 ? ` (${detail.join(' ')})` : ''}`);
}

/**
 * Sends every mail due now (run by the service's periodic job, `mailDispatchWords`); resolves with how many were
 * sent, rejects at the first send failure. A mail is removed once the mail server took it; one it refused waits
 * (backoff) and is tried again, so a mail server outage delays mails and loses none. A dispatcher that dies
 * between the server's acceptance and the removal sends that mail again on the next run: at least once, never
 * zero. Several replicas share the queue (claims with SKIP LOCKED and a lease).
 */
export async function sendQueuedMails({ db, mailer, batchSize = 50 }: MailDispatchDependencies): Promise<number> {
  let total = 0;
  for (;;) {
    const mails = await mailQueueRepository.claim(db, batchSize);
    for (const [index, mail] of mails.entries()) {
      try {
        await mailer.send({ to: mail.to, subject: mail.subject, text: mail.text });
      } catch (error) {
        mailsSent.inc({ result: 'failed' });
        // The server refused this one: it and the rest of the batch wait for the next try.
        await mailQueueRepository.retryLater(
          db,
          mails.slice(index).map((unsent) => unsent.id),
        );
        throw sendFailure(error);
      }
      await mailQueueRepository.remove(db, mail.id);
      mailsSent.inc({ result: 'sent' });
      total += 1;
    }
    if (mails.length < batchSize) return total;
  }
}

/** An outage fails every run: logged when it starts and when it ends, not once per run; a mail sent, not at all. */
export const mailDispatchWords: PeriodicJobWords<number> = {
  done: () => undefined,
  recovered: 'Mails are being sent again',
  failed: 'Mails cannot be sent; they stay queued and are retried',
  failedAgain: 'Mails still cannot be sent',
  waitsForDatabase: 'Mail dispatch waits for the database',
};
