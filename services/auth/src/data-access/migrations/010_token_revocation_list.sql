-- The revocation list is @whistle/tokens' now (its 000_token_revocation, in this schema): the logged-out tokens
-- move there.
-- Self-contained SQL: this text never changes with the package.

insert into auth.token_revocation (jti, expires_at)
  select jti, expires_at from auth.revoked_token where expires_at > now()
  on conflict (jti) do nothing;
drop table auth.revoked_token;
