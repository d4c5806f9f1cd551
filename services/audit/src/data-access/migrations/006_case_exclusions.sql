-- Who is kept out of which case (docs/security.md, "Keeping people out"): a person the discloser kept out, or whom
-- an admin excluded for a conflict of interest, must not learn from the company's trail that the case exists. The
-- trail leaves a case's entries out for them. Kept from incident.created v2 (the discloser's exclusions) and
-- incident.exclusion.changed (the whole list after each change); no content, ids only.
create table audit.case_exclusion (
  company_id uuid not null,
  incident_id uuid not null,
  user_id uuid not null,
  primary key (incident_id, user_id)
);
create index case_exclusion_viewer_idx on audit.case_exclusion (company_id, user_id);

alter table audit.case_exclusion enable row level security;
create policy tenant_wall on audit.case_exclusion to whistle_tenant_audit
  using (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid)
  with check (company_id = nullif(current_setting('whistle.company_id', true), '')::uuid);
-- Read in an admin's tenant scope (the trail's filter); written by the consumer only, outside any scope.
grant select on audit.case_exclusion to whistle_tenant_audit;

-- From what the trail already holds: each case's latest exclusion list, and the reports' own exclusions.
insert into audit.case_exclusion (company_id, incident_id, user_id)
  select latest.company_id, latest.incident_id, excluded.user_id::uuid
    from (select distinct on (incident_id) company_id, incident_id, payload
            from audit.audit_event
           where name = 'incident.exclusion.changed' and company_id is not null and incident_id is not null
           order by incident_id, seq desc) latest,
         jsonb_array_elements_text(latest.payload -> 'excluded_user_ids') as excluded(user_id)
  on conflict do nothing;
insert into audit.case_exclusion (company_id, incident_id, user_id)
  select e.company_id, e.incident_id, excluded.user_id::uuid
    from audit.audit_event e, jsonb_array_elements_text(e.payload -> 'excluded_user_ids') as excluded(user_id)
   where e.name = 'incident.created' and e.version = 2 and e.company_id is not null and e.incident_id is not null
     and not exists (select 1 from audit.audit_event later
                      where later.name = 'incident.exclusion.changed' and later.incident_id = e.incident_id)
  on conflict do nothing;
