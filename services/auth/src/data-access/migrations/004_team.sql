alter table auth.user_profile
  -- For the team page: when the member last completed a sign-in (null: never).
  add column last_sign_in_at timestamptz,
  -- Announced with user.updated for the mails other services send this member.
  add column language text not null default 'en' check (language in ('en', 'fr')),
  add column notifications jsonb not null
    default '{"new_incidents": true, "assigned_to_an_incident": true, "incident_updates": true, "deadlines": true}';
