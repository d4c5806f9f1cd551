-- The key of a company's chain: platform entries (no company) form a chain of their own.
-- Created by migration 002_audit_trail; this file is its current text.
create or replace function audit.chain_key(company_id uuid) returns uuid language sql immutable as $$
  select coalesce(company_id, '00000000-0000-0000-0000-000000000000'::uuid)
$$;
