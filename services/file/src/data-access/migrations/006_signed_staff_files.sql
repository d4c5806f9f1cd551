-- Signed staff files (issue 25 item 4, docs/security.md "Signed staff messages"): a file staff send the discloser is
-- signed in their browser with their signing key, over the case, the encrypted name and key and content_digest
-- (SHA-256 of the ciphertext, base64url, checked against the bytes at upload). signer_key_id is the key id the
-- browser names; only the discloser's browser can check the signature. All null for discloser uploads and older files.
alter table file.file
  add column signer_key_id uuid,
  add column signature_nonce text,
  add column signature text,
  add column content_digest text;
