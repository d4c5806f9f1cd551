-- Mails waiting for the mail server, written in the same transaction as the event that caused them: an
-- event is handled (and acked) once, whether or not SMTP is up; a mail leaves the queue once sent.
create table notification.mail_queue (
  id bigserial primary key,
  recipient text not null,
  subject text not null,
  body text not null,
  attempts integer not null default 0,
  -- After a failed send, the next try waits (backoff); a claimed row belongs to one dispatcher for a while.
  not_before timestamptz not null default now(),
  claimed_until timestamptz
);
create index mail_queue_due_idx on notification.mail_queue (not_before);
