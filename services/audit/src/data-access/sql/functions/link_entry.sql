-- Links each new entry to its company's chain. The head row lock serialises a company's inserts, so
-- concurrent consumers never fork its chain.
-- Created by migration 002_audit_trail; this file is its current text.
create or replace function audit.link_entry() returns trigger language plpgsql as $$
declare head audit.chain_head;
begin
  insert into audit.chain_head (company_key) values (audit.chain_key(new.company_id)) on conflict do nothing;
  select * into head from audit.chain_head where company_key = audit.chain_key(new.company_id) for update;
  new.seq := head.seq + 1;
  new.prev_hash := head.hash;
  new.hash := audit.entry_hash(new);
  update audit.chain_head set seq = new.seq, hash = new.hash where company_key = head.company_key;
  return new;
end;
$$;
