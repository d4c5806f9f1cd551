-- Signed staff messages (issue 25 item 4, docs/security.md "Signed staff messages").
--
-- discloser_team_keys: the case team's signing keys as the report form saw them, sealed in the discloser's browser for
-- the discloser alone (the server can neither read nor forge it); null for reports sent without one.
alter table incident.incident add column discloser_team_keys text;

-- A staff message's signature by its sender's signing key (their staff_key.key_id when sent), over the case, the
-- ciphertext and a nonce of the sender's browser; null for discloser messages and staff messages sent before.
alter table incident.message
  add column signer_key_id uuid,
  add column signature_nonce text,
  add column signature text;
