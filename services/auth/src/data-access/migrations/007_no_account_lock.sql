-- Wrong passwords no longer lock an account (anyone knowing the address could keep its owner out): the
-- guessing client is slowed down by the rate limits instead; failed_logins only counts the streak for
-- the owner's notice.
alter table auth.user_profile drop column locked_until;
