-- Onboarding waits for the first admin to confirm the e-mailed link. A registration holds nothing: not the
-- e-mail domain, not the address (only the url_identifier it was promised), so a registration by someone who
-- does not own the address never keeps the real owner out. The first registration of a domain confirmed
-- becomes the company; the others, and unconfirmed ones after a day, are deleted.

create table auth.company_registration (
  -- The company's id once confirmed: the passphrase is wrapped for it.
  id uuid primary key,
  url_identifier text not null unique,
  -- SHA-256 of the link's secret, never the secret.
  secret_hash text not null unique,
  email text not null,
  email_domain text not null,
  full_name text not null,
  name text not null,
  country char(2) not null,
  password_hash text not null,
  public_key text not null,
  aes_encrypted_private_key text not null,
  wrapped_passphrase text not null,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index company_registration_expires_idx on auth.company_registration (expires_at);
