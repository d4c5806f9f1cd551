-- The company's retention policy (docs/security.md, Retention): closed cases are deleted for good this many
-- months after closing. Owned here, by the service that deletes.
alter table incident.company add column retention_months integer not null default 12
  check (retention_months between 1 and 120);

-- When a closed case is to be deleted; null while it is not closed. One index over all tenants, so the
-- purge and its warning take what has come due without walking every company's closed cases.
alter table incident.incident add column purge_at timestamptz;
create index incident_purge_idx on incident.incident (purge_at) where purge_at is not null;

-- Closing (or a closing time set otherwise) fixes the date from the company's policy; reopening clears it.
-- Other updates leave it alone: a policy change moves it itself (with its grace period).
create function incident.keep_purge_at() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' or (new.status, new.closed_at) is distinct from (old.status, old.closed_at) then
    if new.status = 'CLOSED' and new.closed_at is not null then
      new.purge_at := new.closed_at + make_interval(months => (
        select c.retention_months from incident.company c where c.id = new.company_id));
    else
      new.purge_at := null;
    end if;
  end if;
  return new;
end;
$$;
create trigger incident_keep_purge_at before insert or update on incident.incident
  for each row execute function incident.keep_purge_at();

-- Cases closed before this upgrade: never deleted without the admins' warning first, so none falls due
-- sooner than the default warning period from now.
update incident.incident set purge_at = greatest(closed_at + interval '12 months', now() + interval '14 days')
 where status = 'CLOSED' and closed_at is not null;

-- One row per warning sent, written in the transaction of its outbox event: the key (case and deletion
-- date) makes a second one impossible, whichever replica, restart or retry attempts it. A new date (the
-- policy changed, or the case was reopened and closed again) is warned of again.
create table incident.retention_warning (
  incident_id uuid not null references incident.incident (id) on delete cascade,
  company_id uuid not null,
  delete_at timestamptz not null,
  sent_at timestamptz not null default now(),
  primary key (incident_id, delete_at)
);
