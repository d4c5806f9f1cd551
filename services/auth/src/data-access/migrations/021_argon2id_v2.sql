-- A second browser key derivation (issue 21, the sign-in budget): argon2id-v2 has 2 passes where v1 has 3. New
-- passwords and unlock passphrases are v2; a v1 account keeps v1 until its next password sign-in re-derives it
-- (docs/security.md, "Migration"), so both names are valid.
alter table auth.user_profile
  drop constraint user_profile_kdf_check,
  add constraint user_profile_kdf_check check (kdf in ('argon2id-v1', 'argon2id-v2'));

-- A registration waiting for its confirmation keeps the kdf its page derived the admin's salt with (null: stored
-- before, by a page that knew only argon2id-v1), so the account it becomes signs in with the same derivation.
alter table auth.company_registration
  add column kdf text check (kdf in ('argon2id-v1', 'argon2id-v2'));
