-- Reply templates per language (issue 23 item 4, "per company and language"): each template is in one of the
-- company's languages (a discloser language it offers or a staff language: the service checks which), and a name is
-- unique within its language, so "Acknowledgement" can exist in English and in French. The templates written before
-- are in the company's default language.
alter table auth.reply_template add column language text;
update auth.reply_template t set language = c.default_language from auth.company c where c.id = t.company_id;
alter table auth.reply_template
  alter column language set not null,
  add constraint reply_template_language_code check (language ~ '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$'),
  drop constraint reply_template_company_id_name_key,
  add constraint reply_template_company_language_name unique (company_id, language, name);
