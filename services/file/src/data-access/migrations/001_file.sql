-- An encrypted file's metadata; its bytes are in the object store under object_key. file_name
-- and encrypted_key are the browser's ciphertexts; size (of the plaintext) and mime type are clear.
create table file.file (
  id uuid primary key,
  company_id uuid not null,
  incident_id uuid not null,
  incident_message_id uuid,
  object_key text not null unique,
  file_name text not null,
  encrypted_key text not null,
  file_size bigint not null check (file_size >= 0),
  mime_type text not null,
  created_at timestamptz not null default now()
);
create index file_incident_idx on file.file (company_id, incident_id);
