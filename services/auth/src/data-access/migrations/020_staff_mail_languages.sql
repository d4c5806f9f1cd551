-- A staff member's language may be any of the staff pages' eight (issue #29, docs/i18n.md "Staff e-mails"): the case
-- and account mails are written in each of them. 004 allowed English and French only.
alter table auth.user_profile drop constraint user_profile_language_check;
alter table auth.user_profile add constraint user_profile_language_check
  check (language in ('en', 'fr', 'de', 'es', 'it', 'nl', 'pl', 'pt'));

-- The language of the page a company signed up on: its confirmation mail is in it, and at confirmation it becomes the
-- founding admin's language (the welcome mail's). Onboarding writes it, outside any tenant scope.
alter table auth.company_registration add column language text not null default 'en'
  check (language in ('en', 'fr', 'de', 'es', 'it', 'nl', 'pl', 'pt'));
