-- The revocation list is @whistle/tokens' now (its 000_token_revocation, in this schema): the logged-out tokens
-- move there, and so do the removals of the last day (a removed member’s tokens stay refused).
-- Self-contained SQL: this text never changes with the package.

insert into audit.token_revocation (jti, expires_at)
  select jti, expires_at from audit.revoked_token where expires_at > now()
  on conflict (jti) do nothing;
drop table audit.revoked_token;
insert into audit.user_session_revocation (user_id, not_before, forget_after)
  select user_id::text, date_trunc('second', removed_at) + interval '1 second', removed_at + interval '1 day'
    from audit.staff_member where removed_at > now() - interval '1 day'
  on conflict (user_id) do nothing;
