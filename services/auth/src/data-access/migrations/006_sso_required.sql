-- With SSO enabled: staff other than admins may sign in only through the company's IdP.
alter table auth.sso_settings add column require_sso boolean not null default false;
