-- Which languages a company's disclosure page offers, its default, and its landing text per language (issue #29
-- items 3 and 4). `discloser_languages` null: every language the platform has (what a company that never chose
-- gets, and so every company before this migration). `landing_texts`: {"de": {"title": …, "description": …}},
-- each description sanitised like the default one before it is stored. The codes are checked by the service
-- against the platform's list, which grows without a migration.
alter table auth.company
  add column discloser_languages text[] check (cardinality(discloser_languages) > 0),
  add column default_language text not null default 'en',
  add column landing_texts jsonb not null default '{}'::jsonb check (jsonb_typeof(landing_texts) = 'object'),
  add constraint company_default_language_offered
    check (discloser_languages is null or default_language = any (discloser_languages));

-- Admins change them in a staff request (a tenant scope).
grant update (discloser_languages, default_language, landing_texts) on auth.company to whistle_tenant_auth;
