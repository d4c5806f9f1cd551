import type { Mailer } from '@whistle/mailer';
import { mailsSent, type Database, type Logger } from '@whistle/service-kit';
import { mailQueueRepository } from '../../data-access/mail-queue.repository';

export interface MailDispatcherOptions {
  db: Database;
  mailer: Mailer;
  logger: Logger;
  /** How often the queue is looked at. */
  intervalMs?: number;
  /** Mails claimed per round. */
  batchSize?: number;
}

export interface MailDispatcher {
  /** Sends every mail due now; resolves with how many were sent, rejects with the first send failure. */
  flush(): Promise<number>;
  /** Stops looking at the queue and waits for a round in progress. */
  stop(): Promise<void>;
}

/**
 * Sends the queued mails. A mail is removed once the mail server took it; one it refused waits (backoff) and
 * is tried again, so a mail server outage delays mails and loses none. A dispatcher that dies between the
 * server's acceptance and the removal sends that mail again on the next round: at least once, never zero.
 * Several replicas share the queue (claims with SKIP LOCKED and a lease).
 */
export function startMailDispatcher(options: MailDispatcherOptions): MailDispatcher {
  const { db, mailer, logger } = options;
  const batchSize = options.batchSize ?? 50;

  async function round(): Promise<{ sent: number; more: boolean }> {
    const mails = await mailQueueRepository.claim(db, batchSize);
    let sent = 0;
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
        throw error;
      }
      await mailQueueRepository.remove(db, mail.id);
      mailsSent.inc({ result: 'sent' });
      sent += 1;
    }
    return { sent, more: mails.length === batchSize };
  }

  let running: Promise<number> | undefined;
  function flush(): Promise<number> {
    running ??= (async () => {
      let total = 0;
      for (;;) {
        const { sent, more } = await round();
        total += sent;
        if (!more) return total;
      }
    })().finally(() => {
      running = undefined;
    });
    return running;
  }

  // An outage fails every round: logged when it starts and when it ends, not once per round, and never the
  // mail itself (its recipient and link stay out of the log).
  let failing = false;
  function tick(): void {
    flush().then(
      () => {
        if (!failing) return;
        failing = false;
        logger.info('Mails are being sent again');
      },
      (error: unknown) => {
        if (failing) return;
        failing = true;
        logger.warn({ reason: (error as Error)?.message }, 'Mails cannot be sent; they stay queued and are retried');
      },
    );
  }

  const timer = setInterval(tick, options.intervalMs ?? 1000);
  timer.unref();
  tick();
  return {
    flush,
    async stop() {
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
