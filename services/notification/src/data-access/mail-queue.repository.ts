import type { MailMessage } from '@whistle/mailer';
import type { Database, Queryable } from '@whistle/service-kit';

export interface QueuedMail extends MailMessage {
  id: string;
  attempts: number;
}

/** How long a dispatcher keeps the mails it claimed before another may take them (it died mid-round). */
const CLAIM_SECONDS = 120;

/** The mails waiting for the mail server (notification.mail_queue). */
export const mailQueueRepository = {
  /** A mail to one of `companyId`'s people, or about it. */
  async add(db: Queryable, companyId: string, message: MailMessage): Promise<void> {
    await db.query(
      'insert into notification.mail_queue (company_id, recipient, subject, body) values ($1, $2, $3, $4)',
      [companyId, message.to, message.subject, message.text],
    );
  },

  /**
   * Claims up to `limit` mails due now, oldest first, in one short transaction (SKIP LOCKED, then a lease),
   * so replicas share the queue and no transaction stays open while talking to the mail server.
   */
  async claim(db: Database, limit: number): Promise<QueuedMail[]> {
    const { rows } = await db.transaction((tx) =>
      tx.query<{ id: string; recipient: string; subject: string; body: string; attempts: number }>(
        `update notification.mail_queue set claimed_until = now() + interval '${CLAIM_SECONDS} seconds'
          where id in (
            select id from notification.mail_queue
             where not_before <= now() and (claimed_until is null or claimed_until < now())
             order by id limit $1 for update skip locked)
          returning id, recipient, subject, body, attempts`,
        [limit],
      ),
    );
    return rows
      .sort((a, b) => Number(BigInt(a.id) - BigInt(b.id)))
      .map((row) => ({ id: row.id, to: row.recipient, subject: row.subject, text: row.body, attempts: row.attempts }));
  },

  /** Sent: nothing of it is kept. */
  async remove(db: Queryable, id: string): Promise<void> {
    await db.query('delete from notification.mail_queue where id = $1', [id]);
  },

  /**
   * Not sent: tried again later by whichever dispatcher comes first, waiting twice as long after each failure
   * (2 s, 4 s, … at most 15 minutes), so a mail server that is down for hours is not hammered.
   */
  async retryLater(db: Queryable, ids: readonly string[]): Promise<void> {
    await db.query(
      `update notification.mail_queue set attempts = attempts + 1, claimed_until = null,
              not_before = now() + make_interval(secs => least(power(2, attempts + 1), 900))
        where id = any($1::bigint[])`,
      [ids],
    );
  },
};
