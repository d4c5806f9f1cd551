-- Whether the report form names the case team (issue 25 item 2, docs/security.md "Keeping people out"): with it, the
-- public company view carries the display names of each category's readers, and a discloser can exclude any of them
-- by name before sending. Off by default (GDPR art. 25(2), data minimisation): the company opts in.
alter table auth.company add column shows_recipient_names boolean not null default false;

-- Admins change it in a staff request (a tenant scope).
grant update (shows_recipient_names) on auth.company to whistle_tenant_auth;
