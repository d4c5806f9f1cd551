-- Proofs of work spent on a report (docs/security.md, "Report flooding"): a challenge serves one report. The
-- idempotency key's hash lets the same report, sent again after a lost answer, through; rows go at expiry.

create table incident.proof_of_work_spent (
  challenge_id text primary key,
  idempotency_key_hash text,
  expires_at timestamptz not null
);
create index proof_of_work_spent_expires_idx on incident.proof_of_work_spent (expires_at);
