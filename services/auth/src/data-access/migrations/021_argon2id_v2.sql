-- A second browser key derivation (issue 21, the sign-in budget): argon2id-v2 has 2 passes where v1 has 3. New
-- passwords and unlock passphrases are v2; a v1 account keeps v1 until its next password sign-in re-derives it
-- (docs/security.md, "Migration"), so both names are valid.
alter table auth.user_profile
  drop constraint user_profile_kdf_check,
  add constraint user_profile_kdf_check check (kdf in ('argon2id-v1', 'argon2id-v2'));
