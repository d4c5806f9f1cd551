import { tenantRolePerSchemaSql, tenantWallSql, type Migration } from '@whistle/service-kit';

export const INCIDENT_SCHEMA = 'incident';

export const incidentMigrations: Migration[] = [
  {
    id: '001_company_read_model',
    sql: `
      -- What the incident service knows of companies, kept from auth's events (services never read each
      -- other's tables): a report is checked against these ids, and numbered per company.
      create table incident.company (
        id uuid primary key,
        url_identifier text not null unique,
        next_report_number integer not null default 1
      );
      create table incident.category (
        id uuid primary key,
        company_id uuid not null references incident.company (id) on delete cascade,
        parent_id uuid,
        name text not null,
        is_active boolean not null
      );
      create index category_company_idx on incident.category (company_id);
      create table incident.location (
        id uuid primary key,
        company_id uuid not null references incident.company (id) on delete cascade,
        name text not null,
        is_active boolean not null
      );
      create index location_company_idx on incident.location (company_id);
    `,
  },
  {
    id: '002_incident',
    sql: `
      -- A report. Clear columns are what the server may see (ARCHITECTURE §5): ids, number, status,
      -- channel, anonymity flag, timestamps. Key material is the browser's ciphertext; the discloser's
      -- auth token only as a hash. Nothing here identifies the discloser's device or network.
      create table incident.incident (
        id uuid primary key,
        company_id uuid not null references incident.company (id),
        display_report_number integer not null,
        retrieval_id text not null unique,
        status text not null default 'NEW' check (status in ('NEW', 'IN_PROGRESS', 'RESOLVED', 'CLOSED')),
        report_channel text not null check (report_channel in ('online', 'telephone', 'internal')),
        report_anonymously boolean not null,
        location_id uuid not null references incident.location (id),
        public_key text not null,
        aes_encrypted_private_key text not null,
        aes_salt text not null,
        aes_iv text not null,
        company_encrypted_passphrase text not null,
        discloser_encrypted_passphrase text not null,
        discloser_auth_token_hash text not null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        last_activity_at timestamptz not null default now(),
        unique (company_id, display_report_number)
      );
      create table incident.incident_category (
        incident_id uuid not null references incident.incident (id) on delete cascade,
        category_id uuid not null references incident.category (id),
        primary key (incident_id, category_id)
      );
      -- Report fields, each value encrypted to the incident key in the browser.
      create table incident.incident_field (
        incident_id uuid not null references incident.incident (id) on delete cascade,
        name text not null,
        value text not null,
        position integer not null,
        primary key (incident_id, name)
      );
      create table incident.message (
        id uuid primary key,
        incident_id uuid not null references incident.incident (id) on delete cascade,
        company_id uuid not null,
        content text not null,
        sender_source text not null check (sender_source in ('DISCLOSER', 'STAFF')),
        sender_name text not null,
        -- The staff author once staff can write; null for the discloser, who has no account.
        sender_user_id uuid,
        created_at timestamptz not null default now()
      );
      create index message_incident_idx on incident.message (incident_id, created_at);
      -- Files as the file service announced them (incident.file.created): metadata only, no name or key.
      create table incident.file (
        id uuid primary key,
        incident_id uuid not null,
        company_id uuid not null,
        incident_message_id uuid,
        file_size bigint not null,
        mime_type text not null,
        created_at timestamptz not null
      );
      create index file_incident_idx on incident.file (incident_id, created_at);
    `,
  },
  {
    id: '003_case_management',
    sql: `
      -- Statuses after the EU directive and ISO 37002 (docs/case-management.md); earlier ones mapped onto them.
      alter table incident.incident drop constraint incident_status_check;
      update incident.incident set status = case status when 'IN_PROGRESS' then 'INVESTIGATION' when 'RESOLVED' then 'CLOSED' else status end;
      alter table incident.incident add constraint incident_status_check
        check (status in ('NEW', 'ACKNOWLEDGED', 'ASSESSMENT', 'INVESTIGATION', 'CLOSED', 'REOPENED'));

      -- A report's number is taken in the last statement before COMMIT, so a company's reports are not
      -- created one at a time behind its counter's row lock (docs/performance.md); it is set whenever the
      -- row is visible to anyone else.
      alter table incident.incident alter column display_report_number drop not null;

      -- What the company decided (auth's company.updated): the internal resolution target.
      alter table incident.company add column resolution_deadline_days integer not null default 14;
      -- Reporting labels keep their name for the cases that use them, even once auth deleted them.
      alter table incident.category
        add column assignee_ids uuid[] not null default '{}',
        add column deleted boolean not null default false;

      -- The clocks of each case, in UTC: due times are fixed when a clock starts, done times when it stops.
      -- next_due_at is the earliest due time of a running clock (null when none runs): the overdue filter.
      alter table incident.incident
        add column outcome text check (outcome in ('substantiated', 'unsubstantiated', 'inconclusive', 'referred',
          'out_of_scope', 'spam', 'withdrawn')),
        add column acknowledged_at timestamptz,
        add column feedback_at timestamptz,
        add column closed_at timestamptz,
        add column reopened_at timestamptz,
        add column acknowledgement_due_at timestamptz,
        add column feedback_due_at timestamptz,
        add column resolution_due_at timestamptz,
        add column next_due_at timestamptz,
        -- The case's first top-level label, for the category__name sort; kept when a label is renamed.
        add column sort_category text not null default '';
      update incident.incident i set
        acknowledgement_due_at = i.created_at + interval '7 days',
        feedback_due_at = i.created_at + interval '7 days' + interval '3 months',
        resolution_due_at = i.created_at + make_interval(days => c.resolution_deadline_days),
        closed_at = case when i.status = 'CLOSED' then i.updated_at end
        from incident.company c where c.id = i.company_id;
      update incident.incident i set sort_category = coalesce((
        select c.name from incident.incident_category ic join incident.category c on c.id = ic.category_id
         where ic.incident_id = i.id and c.parent_id is null order by c.name limit 1), '');
      alter table incident.incident
        alter column acknowledgement_due_at set not null,
        alter column feedback_due_at set not null,
        alter column resolution_due_at set not null;

      create function incident.next_due(i incident.incident) returns timestamptz language sql immutable as $$
        select case when i.status = 'CLOSED' then null else least(
          case when i.acknowledged_at is null then i.acknowledgement_due_at end,
          case when i.feedback_at is null then i.feedback_due_at end,
          i.resolution_due_at) end
      $$;
      create function incident.keep_next_due() returns trigger language plpgsql as $$
      begin
        new.next_due_at := incident.next_due(new);
        return new;
      end;
      $$;
      create trigger incident_next_due before insert or update on incident.incident
        for each row execute function incident.keep_next_due();
      -- The trigger computes next_due_at for the cases already there.
      update incident.incident set status = status;

      -- The list's sorts and filters, each index-backed within a company (docs/performance.md).
      create index incident_activity_idx on incident.incident (company_id, last_activity_at desc, id desc);
      create index incident_created_idx on incident.incident (company_id, created_at desc, id desc);
      create index incident_category_sort_idx on incident.incident (company_id, sort_category, id);
      create index incident_status_idx on incident.incident (company_id, status);
      create index incident_next_due_idx on incident.incident (company_id, next_due_at) where next_due_at is not null;
      create index incident_category_category_idx on incident.incident_category (category_id);

      -- Staff as auth announced them (user.* events): names for messages and history, who may be assigned.
      create table incident.staff_member (
        user_id uuid primary key,
        company_id uuid not null,
        full_name text not null,
        roles text[] not null,
        removed_at timestamptz
      );
      create index staff_member_company_idx on incident.staff_member (company_id);
      -- Logged-out tokens (token.revoked) until they would have expired: every replica refuses them.
      create table incident.revoked_token (jti text primary key, expires_at timestamptz not null);

      create table incident.assignee (
        incident_id uuid not null references incident.incident (id) on delete cascade,
        user_id uuid not null,
        company_id uuid not null,
        assigned_at timestamptz not null default now(),
        primary key (incident_id, user_id)
      );
      create index assignee_user_idx on incident.assignee (company_id, user_id, incident_id);
      -- Conflict of interest: a person excluded from a case can neither list nor open it.
      create table incident.exclusion (
        incident_id uuid not null references incident.incident (id) on delete cascade,
        user_id uuid not null,
        company_id uuid not null,
        excluded_at timestamptz not null default now(),
        primary key (incident_id, user_id)
      );
      create index exclusion_user_idx on incident.exclusion (company_id, user_id, incident_id);

      create table incident.status_change (
        id uuid primary key,
        incident_id uuid not null references incident.incident (id) on delete cascade,
        company_id uuid not null,
        from_status text,
        to_status text not null,
        outcome text,
        -- Written by staff about the case: encrypted to the incident key in the browser.
        motivation text,
        changed_by uuid,
        changed_at timestamptz not null default now()
      );
      create index status_change_incident_idx on incident.status_change (incident_id, changed_at);

      -- Private staff notes, encrypted to the incident key in the browser, never shown to the discloser.
      create table incident.note (
        id uuid primary key,
        incident_id uuid not null references incident.incident (id) on delete cascade,
        company_id uuid not null,
        content text not null,
        author_user_id uuid not null,
        author_name text not null,
        created_at timestamptz not null default now()
      );
      create index note_incident_idx on incident.note (incident_id, created_at);

      -- A staff reply marked as the feedback the directive requires.
      alter table incident.message add column feedback boolean not null default false;
    `,
  },
  {
    id: '004_deadline_reminders',
    sql: `
      -- The deadline scheduler (docs/case-management.md, Reminders). One row per reminder sent, written in the
      -- transaction of its outbox event: the key makes a second emission impossible, whichever replica, restart
      -- or retry attempts it. The due time is part of the key, so a clock restarted with a new due time
      -- (reopening) is reminded of again.
      create table incident.deadline_reminder (
        incident_id uuid not null references incident.incident (id) on delete cascade,
        company_id uuid not null,
        clock text not null check (clock in ('acknowledgement', 'feedback', 'resolution')),
        state text not null check (state in ('due_soon', 'overdue')),
        due_at timestamptz not null,
        sent_at timestamptz not null default now(),
        primary key (incident_id, clock, state, due_at)
      );

      -- When the scheduler must look at a case next; null when it has nothing left to remind of. next_due_at
      -- cannot serve: a clock left overdue keeps it in the past for good, so every scan would walk every
      -- overdue case again. The scheduler moves this past each reminder it sent; the trigger below brings it
      -- back to now() whenever a clock starts, stops or moves. One index over all tenants.
      alter table incident.incident add column deadline_check_at timestamptz;
      update incident.incident set deadline_check_at = now() where status <> 'CLOSED';
      create index incident_deadline_check_idx on incident.incident (deadline_check_at)
        where deadline_check_at is not null;

      create function incident.wake_deadline_scheduler() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          new.deadline_check_at := case when new.status = 'CLOSED' then null else now() end;
        elsif (new.status, new.acknowledged_at, new.feedback_at, new.closed_at, new.acknowledgement_due_at,
               new.feedback_due_at, new.resolution_due_at)
              is distinct from (old.status, old.acknowledged_at, old.feedback_at, old.closed_at,
               old.acknowledgement_due_at, old.feedback_due_at, old.resolution_due_at) then
          -- A closed case has no running clock: nothing to look at until it is reopened.
          new.deadline_check_at := case when new.status = 'CLOSED' then null else now() end;
        end if;
        return new;
      end;
      $$;
      create trigger incident_wake_deadline_scheduler before insert or update on incident.incident
        for each row execute function incident.wake_deadline_scheduler();
    `,
  },
  {
    id: '005_report_requests',
    sql: `
      -- Idempotency keys of report creations: a create sent again (its answer was lost on the way) finds the
      -- report the first one stored instead of storing a second. The request's hash tells a retry from a
      -- different report under the same key. Removed after a day (and with their report).
      create table incident.report_request (
        company_id uuid not null,
        idempotency_key text not null,
        request_hash text not null,
        -- Written before the report row in the same transaction, so a concurrent duplicate waits on the key.
        incident_id uuid not null references incident.incident (id) on delete cascade deferrable initially deferred,
        created_at timestamptz not null default now(),
        primary key (company_id, idempotency_key)
      );
      create index report_request_created_idx on incident.report_request (created_at);
    `,
  },
  {
    id: '006_retention',
    sql: `
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
    `,
  },
  {
    id: '007_reporting_index',
    sql: `
      -- Reporting (docs/case-management.md, Reporting): every figure reads a company's cases received in a period
      -- and only these columns, so an index-only scan answers it without reading the wide rows (their key
      -- material); at 100,000 cases the table's 87 MB against the index's 14 MB (docs/performance.md).
      create index incident_reporting_idx on incident.incident (company_id, created_at)
        include (id, report_channel, status, outcome, location_id, acknowledged_at, feedback_at, closed_at,
                 acknowledgement_due_at, feedback_due_at);
    `,
  },
  {
    id: '008_reporting_summary',
    sql: `
      -- Reporting from a per-day summary (docs/case-management.md, Reporting; docs/performance.md): the company's
      -- case counts by the day a case was received (UTC) and by one dimension and value at a time, so a figure
      -- reads a few rows a day instead of every case of the period. Dimensions: channel, status, outcome, location,
      -- label (top-level label id; a case with a label and its sub-label counts once), ack and feedback ('met' or
      -- 'late' once the clock stopped) and ack_pending_due, feedback_pending_due (clock still running: the UTC day
      -- it falls due, so "run out by now" stays exact whenever it is asked).
      create table incident.reporting_summary (
        company_id uuid not null,
        day date not null,
        dimension text not null,
        value text not null,
        count integer not null,
        primary key (company_id, day, dimension, value)
      );
      -- What changed since the last fold: insert-only, +1 / -1 per dimension value, written by the triggers below
      -- in the transaction of the change, so no writer waits for another (nothing shared is updated). The fold job
      -- moves them into the summary; a reading adds the few not folded yet.
      create table incident.reporting_delta (
        company_id uuid not null,
        day date not null,
        dimension text not null,
        value text not null,
        change integer not null
      );
      create index reporting_delta_company_idx on incident.reporting_delta (company_id, day);

      create function incident.reporting_day(at timestamptz) returns date language sql immutable as $$
        select (at at time zone 'UTC')::date
      $$;

      -- A case's dimension values; the clocks as the case page's (domain/cases/clocks.ts): a clock stops when it
      -- is acknowledged or fed back, or when the case is closed (a reopened case has no closed_at).
      create function incident.reporting_case_facts(i incident.incident) returns table (dimension text, value text)
      language sql immutable as $$
        with done as (
          select coalesce(i.acknowledged_at, case when i.status = 'CLOSED' then i.closed_at end) as ack,
                 coalesce(i.feedback_at, case when i.status = 'CLOSED' then i.closed_at end) as feedback)
        select 'channel', i.report_channel
        union all select 'status', i.status
        union all select 'outcome', i.outcome where i.outcome is not null
        union all select 'location', i.location_id::text
        union all
        select case when d.ack is null then 'ack_pending_due' else 'ack' end,
               case when d.ack is null then to_char(i.acknowledgement_due_at at time zone 'UTC', 'YYYY-MM-DD')
                    when d.ack <= i.acknowledgement_due_at then 'met' else 'late' end
          from done d
        union all
        select case when d.feedback is null then 'feedback_pending_due' else 'feedback' end,
               case when d.feedback is null then to_char(i.feedback_due_at at time zone 'UTC', 'YYYY-MM-DD')
                    when d.feedback <= i.feedback_due_at then 'met' else 'late' end
          from done d
      $$;

      -- A case's top-level labels (a sub-label stands for its parent), each once.
      create function incident.reporting_case_labels(incident_id uuid) returns setof uuid language sql stable as $$
        select distinct coalesce(c.parent_id, c.id)
          from incident.incident_category ic join incident.category c on c.id = ic.category_id
         where ic.incident_id = reporting_case_labels.incident_id
      $$;

      -- A case received, changed in what is counted, or deleted (retention). Deleting is seen before the row goes:
      -- its labels are still there then (their rows go with the case, and say nothing then: the case is gone).
      create function incident.reporting_case_changed() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' then
          insert into incident.reporting_delta (company_id, day, dimension, value, change)
          select old.company_id, incident.reporting_day(old.created_at), f.dimension, f.value, -1
            from incident.reporting_case_facts(old) f
          where tg_op = 'DELETE' or (old.company_id, incident.reporting_day(old.created_at), f.dimension, f.value)
            not in (select new.company_id, incident.reporting_day(new.created_at), n.dimension, n.value
                      from incident.reporting_case_facts(new) n);
        end if;
        if tg_op <> 'DELETE' then
          insert into incident.reporting_delta (company_id, day, dimension, value, change)
          select new.company_id, incident.reporting_day(new.created_at), f.dimension, f.value, 1
            from incident.reporting_case_facts(new) f
          where tg_op = 'INSERT' or (new.company_id, incident.reporting_day(new.created_at), f.dimension, f.value)
            not in (select old.company_id, incident.reporting_day(old.created_at), o.dimension, o.value
                      from incident.reporting_case_facts(old) o);
        end if;
        -- Its labels move with it to another day (or are gone with it).
        if tg_op = 'DELETE' or (old.company_id, incident.reporting_day(old.created_at))
                               is distinct from (new.company_id, incident.reporting_day(new.created_at)) then
          insert into incident.reporting_delta (company_id, day, dimension, value, change)
          select old.company_id, incident.reporting_day(old.created_at), 'label', top::text, -1
            from incident.reporting_case_labels(old.id) top;
          if tg_op = 'UPDATE' then
            insert into incident.reporting_delta (company_id, day, dimension, value, change)
            select new.company_id, incident.reporting_day(new.created_at), 'label', top::text, 1
              from incident.reporting_case_labels(new.id) top;
          end if;
        end if;
        -- Before a delete, the row must be handed back or it would not be deleted.
        return case when tg_op = 'DELETE' then old end;
      end;
      $$;
      create trigger incident_reporting_inserted after insert on incident.incident
        for each row execute function incident.reporting_case_changed();
      create trigger incident_reporting_deleted before delete on incident.incident
        for each row execute function incident.reporting_case_changed();
      create trigger incident_reporting_updated after update on incident.incident for each row
        when ((old.company_id, old.created_at, old.report_channel, old.status, old.outcome, old.location_id,
               old.acknowledged_at, old.feedback_at, old.closed_at, old.acknowledgement_due_at, old.feedback_due_at)
              is distinct from
              (new.company_id, new.created_at, new.report_channel, new.status, new.outcome, new.location_id,
               new.acknowledged_at, new.feedback_at, new.closed_at, new.acknowledgement_due_at, new.feedback_due_at))
        execute function incident.reporting_case_changed();

      -- Labels given or taken: a top-level label counts once per case, so it is added when the case had none
      -- under it before the statement, and taken when none is left after it.
      create function incident.reporting_labels_added() returns trigger language plpgsql as $$
      begin
        insert into incident.reporting_delta (company_id, day, dimension, value, change)
        select i.company_id, incident.reporting_day(i.created_at), 'label', added.top::text, 1
          from (select distinct n.incident_id, coalesce(c.parent_id, c.id) as top
                  from added_labels n join incident.category c on c.id = n.category_id) added
          join incident.incident i on i.id = added.incident_id
         where not exists (
           select 1 from incident.incident_category ic join incident.category c on c.id = ic.category_id
            where ic.incident_id = added.incident_id and coalesce(c.parent_id, c.id) = added.top
              and not exists (select 1 from added_labels n
                               where n.incident_id = ic.incident_id and n.category_id = ic.category_id));
        return null;
      end;
      $$;
      create function incident.reporting_labels_removed() returns trigger language plpgsql as $$
      begin
        -- A case deleted with its labels is not found here: its delete trigger took them off already.
        insert into incident.reporting_delta (company_id, day, dimension, value, change)
        select i.company_id, incident.reporting_day(i.created_at), 'label', removed.top::text, -1
          from (select distinct o.incident_id, coalesce(c.parent_id, c.id) as top
                  from removed_labels o join incident.category c on c.id = o.category_id) removed
          join incident.incident i on i.id = removed.incident_id
         where removed.top not in (select incident.reporting_case_labels(removed.incident_id));
        return null;
      end;
      $$;
      create trigger incident_category_reporting_added after insert on incident.incident_category
        referencing new table as added_labels for each statement
        execute function incident.reporting_labels_added();
      create trigger incident_category_reporting_removed after delete on incident.incident_category
        referencing old table as removed_labels for each statement
        execute function incident.reporting_labels_removed();

      -- A label moved under another parent (auth does not do it today; the read model would follow): its cases
      -- count for the new top-level label instead.
      create function incident.reporting_label_moved() returns trigger language plpgsql as $$
      begin
        with moved as (
               select o.id, coalesce(o.parent_id, o.id) as old_top
                 from old_categories o join new_categories n on n.id = o.id
                where o.parent_id is distinct from n.parent_id),
             affected as (
               select distinct ic.incident_id from incident.incident_category ic join moved m on m.id = ic.category_id),
             before as (
               select distinct a.incident_id, coalesce(m.old_top, c.parent_id, c.id) as top
                 from affected a join incident.incident_category ic on ic.incident_id = a.incident_id
                 join incident.category c on c.id = ic.category_id left join moved m on m.id = c.id),
             after as (
               select distinct a.incident_id, coalesce(c.parent_id, c.id) as top
                 from affected a join incident.incident_category ic on ic.incident_id = a.incident_id
                 join incident.category c on c.id = ic.category_id),
             changes as (
               (select incident_id, top, -1 as change from (select * from before except select * from after) gone)
               union all
               (select incident_id, top, 1 from (select * from after except select * from before) came))
        insert into incident.reporting_delta (company_id, day, dimension, value, change)
        select i.company_id, incident.reporting_day(i.created_at), 'label', changes.top::text, changes.change
          from changes join incident.incident i on i.id = changes.incident_id;
        return null;
      end;
      $$;
      create trigger category_reporting_moved after update on incident.category
        referencing old table as old_categories new table as new_categories for each statement
        execute function incident.reporting_label_moved();

      -- The figures of the cases already there (the triggers above hold writers off until this commits).
      insert into incident.reporting_summary (company_id, day, dimension, value, count)
      select i.company_id, incident.reporting_day(i.created_at), f.dimension, f.value, count(*)
        from incident.incident i cross join lateral incident.reporting_case_facts(i) f
       group by 1, 2, 3, 4;
      insert into incident.reporting_summary (company_id, day, dimension, value, count)
      select i.company_id, incident.reporting_day(i.created_at), 'label', labels.top::text, count(*)
        from (select distinct ic.incident_id, coalesce(c.parent_id, c.id) as top
                from incident.incident_category ic join incident.category c on c.id = ic.category_id) labels
        join incident.incident i on i.id = labels.incident_id
       group by 1, 2, 4;
    `,
  },
  {
    id: '009_reporting_now_and_medians',
    sql: `
      -- More of the reporting from the summary (docs/case-management.md, Reporting):
      -- next_due, the UTC day of the case's next_due_at (kept by incident_next_due; no row when no clock runs): a
      -- company's overdue cases are its rows due before today plus the few due today, read from
      -- incident_next_due_idx ("open now" is there already: the status rows of every day);
      -- ack_time, feedback_time, close_time: how long the clock took, in one of the buckets below, so a median is
      -- found in its bucket from the summary and only that bucket's cases of the period are read to get it exactly.
      create function incident.reporting_time_bucket(seconds numeric) returns integer language sql immutable as $$
        -- Hours, then days (1 day is 86,400 s): finer where most clocks stop (the directive's 7 days and 3 months),
        -- so a median's bucket holds a small part of the period's cases.
        select width_bucket(seconds, array[
          3600, 7200, 14400, 28800, 43200, 64800, 86400, 129600, 172800, 216000, 259200, 345600, 432000, 518400,
          604800, 691200, 864000, 1036800, 1209600, 1468800, 1814400, 2160000, 2592000, 3196800, 3888000, 4492800,
          5184000, 6480000, 7776000, 9072000, 10368000, 12960000, 15552000, 20736000, 31536000, 63072000]::numeric[])
      $$;
      -- The trigger first: it holds writers off until the summary below is complete.
      drop trigger incident_reporting_updated on incident.incident;
      create trigger incident_reporting_updated after update on incident.incident for each row
        when ((old.company_id, old.created_at, old.report_channel, old.status, old.outcome, old.location_id,
               old.acknowledged_at, old.feedback_at, old.closed_at, old.acknowledgement_due_at, old.feedback_due_at,
               old.next_due_at)
              is distinct from
              (new.company_id, new.created_at, new.report_channel, new.status, new.outcome, new.location_id,
               new.acknowledged_at, new.feedback_at, new.closed_at, new.acknowledgement_due_at, new.feedback_due_at,
               new.next_due_at))
        execute function incident.reporting_case_changed();
      create or replace function incident.reporting_case_facts(i incident.incident)
        returns table (dimension text, value text)
      language sql immutable as $$
        with done as (
          select coalesce(i.acknowledged_at, case when i.status = 'CLOSED' then i.closed_at end) as ack,
                 coalesce(i.feedback_at, case when i.status = 'CLOSED' then i.closed_at end) as feedback)
        select 'channel', i.report_channel
        union all select 'status', i.status
        union all select 'outcome', i.outcome where i.outcome is not null
        union all select 'location', i.location_id::text
        union all
        select case when d.ack is null then 'ack_pending_due' else 'ack' end,
               case when d.ack is null then to_char(i.acknowledgement_due_at at time zone 'UTC', 'YYYY-MM-DD')
                    when d.ack <= i.acknowledgement_due_at then 'met' else 'late' end
          from done d
        union all
        select case when d.feedback is null then 'feedback_pending_due' else 'feedback' end,
               case when d.feedback is null then to_char(i.feedback_due_at at time zone 'UTC', 'YYYY-MM-DD')
                    when d.feedback <= i.feedback_due_at then 'met' else 'late' end
          from done d
        union all
        select 'next_due', to_char(i.next_due_at at time zone 'UTC', 'YYYY-MM-DD') where i.next_due_at is not null
        union all
        select 'ack_time', incident.reporting_time_bucket(extract(epoch from (i.acknowledged_at - i.created_at)))::text
         where i.acknowledged_at is not null
        union all
        select 'feedback_time', incident.reporting_time_bucket(extract(epoch from (i.feedback_at - i.created_at)))::text
         where i.feedback_at is not null
        union all
        select 'close_time', incident.reporting_time_bucket(extract(epoch from (i.closed_at - i.created_at)))::text
         where i.status = 'CLOSED' and i.closed_at is not null
      $$;
      -- A median's bucket, read for the period: the cases of one company and bucket, by receipt.
      create index incident_ack_time_idx on incident.incident
        (company_id, incident.reporting_time_bucket(extract(epoch from (acknowledged_at - created_at))), created_at)
        include (acknowledged_at, id) where acknowledged_at is not null;
      create index incident_feedback_time_idx on incident.incident
        (company_id, incident.reporting_time_bucket(extract(epoch from (feedback_at - created_at))), created_at)
        include (feedback_at, id) where feedback_at is not null;
      create index incident_close_time_idx on incident.incident
        (company_id, incident.reporting_time_bucket(extract(epoch from (closed_at - created_at))), created_at)
        include (closed_at, id) where status = 'CLOSED' and closed_at is not null;
      -- "Now" reads one dimension over every day of the company.
      create index reporting_summary_dimension_idx on incident.reporting_summary (company_id, dimension, day);
      insert into incident.reporting_summary (company_id, day, dimension, value, count)
      select i.company_id, incident.reporting_day(i.created_at), f.dimension, f.value, count(*)
        from incident.incident i cross join lateral incident.reporting_case_facts(i) f
       where f.dimension in ('next_due', 'ack_time', 'feedback_time', 'close_time')
       group by 1, 2, 3, 4;
    `,
  },
  {
    id: '011_case_list_indexes',
    sql: `
      -- The staff list's capped count (up to 10,001 matching cases) for each filter, as an index-only scan: the
      -- filter's column, then the case id the caller's exclusions are checked against. Without the id, counting
      -- the cases of one status read up to 50,000 entries of another index and their rows: 18–74 ms at 1,000,000
      -- cases against 2–8 ms (docs/performance.md).
      drop index incident.incident_status_idx;
      create index incident_status_idx on incident.incident (company_id, status) include (id);
      create index incident_channel_idx on incident.incident (company_id, report_channel) include (id);
      create index incident_location_idx on incident.incident (company_id, location_id) include (id);
      drop index incident.incident_next_due_idx;
      create index incident_next_due_idx on incident.incident (company_id, next_due_at) include (id)
        where next_due_at is not null;
    `,
  },
  {
    // The tenant wall (docs/security.md, "Tenant isolation"): a request run as a company (asTenant) sees and writes
    // only that company's rows, even through a query that forgets its company_id. Every table of company data is
    // here; the service's bookkeeping stays open: the outbox (every company's events, ids only, which the relay
    // reads as the service), inbox, revoked_token, rate_limit_counter, schema_migration. The reporting triggers
    // write their deltas as the caller, for the caller's case: the policy accepts them.
    id: '012_tenant_wall',
    sql: tenantWallSql(INCIDENT_SCHEMA, [
      { table: 'company', companyColumn: 'id' },
      { table: 'category', companyColumn: 'company_id' },
      { table: 'location', companyColumn: 'company_id' },
      { table: 'staff_member', companyColumn: 'company_id' },
      { table: 'incident', companyColumn: 'company_id' },
      { table: 'incident_category', parent: { table: 'incident', foreignKey: 'incident_id' } },
      { table: 'incident_field', parent: { table: 'incident', foreignKey: 'incident_id' } },
      { table: 'message', companyColumn: 'company_id' },
      { table: 'file', companyColumn: 'company_id' },
      { table: 'assignee', companyColumn: 'company_id' },
      { table: 'exclusion', companyColumn: 'company_id' },
      { table: 'status_change', companyColumn: 'company_id' },
      { table: 'note', companyColumn: 'company_id' },
      { table: 'deadline_reminder', companyColumn: 'company_id' },
      { table: 'report_request', companyColumn: 'company_id' },
      { table: 'retention_warning', companyColumn: 'company_id' },
      { table: 'reporting_summary', companyColumn: 'company_id' },
      { table: 'reporting_delta', companyColumn: 'company_id' },
    ]),
  },
  {
    id: '013_reporting_time_buckets',
    sql: `
      -- A median's bucket read in a company's scope (012): the policy's condition is applied first, and a condition
      -- of the query that calls a function not marked LEAKPROOF (extract, timestamptz minus,
      -- reporting_time_bucket) is kept after it, so the bucket of 009's expression indexes was no longer an index
      -- condition: the scan read every stopped clock of the company's period, not one bucket's (at 30,000 cases,
      -- 24,000 entries for 4,106). Marking them LEAKPROOF takes a superuser. The buckets as stored columns, compared
      -- with integer equality (leakproof), are an index condition again; the same expressions as the case facts' (009).
      -- Adding them rewrites the table once, writers waiting meanwhile (1.5 s at 60,000 cases on PostgreSQL).
      alter table incident.incident
        add column ack_time_bucket integer generated always as
          (incident.reporting_time_bucket(extract(epoch from (acknowledged_at - created_at)))) stored,
        add column feedback_time_bucket integer generated always as
          (incident.reporting_time_bucket(extract(epoch from (feedback_at - created_at)))) stored,
        add column close_time_bucket integer generated always as
          (incident.reporting_time_bucket(extract(epoch from (closed_at - created_at)))) stored;
      drop index incident.incident_ack_time_idx;
      drop index incident.incident_feedback_time_idx;
      drop index incident.incident_close_time_idx;
      create index incident_ack_time_idx on incident.incident (company_id, ack_time_bucket, created_at)
        include (acknowledged_at, id) where acknowledged_at is not null;
      create index incident_feedback_time_idx on incident.incident (company_id, feedback_time_bucket, created_at)
        include (feedback_at, id) where feedback_at is not null;
      create index incident_close_time_idx on incident.incident (company_id, close_time_bucket, created_at)
        include (closed_at, id) where status = 'CLOSED' and closed_at is not null;
    `,
  },
  {
    id: '014_batched_report_writes',
    sql: `
      -- Reports arrive in batches (the report writer stores the reports arriving together in one statement:
      -- docs/performance.md, "Report creation"). Two costs per report become one per batch, or none:

      -- 1. The figures of the cases received are inserted once per statement, not by a trigger call and an insert
      -- per case (which were 40 % of storing a batch of 20). Changes and deletions keep their row trigger
      -- (reporting_case_changed, whose INSERT branch is no longer reached).
      create function incident.reporting_cases_inserted() returns trigger language plpgsql as $$
      begin
        insert into incident.reporting_delta (company_id, day, dimension, value, change)
        select n.company_id, incident.reporting_day(n.created_at), f.dimension, f.value, 1
          from inserted_cases n cross join lateral incident.reporting_case_facts(n) f;
        return null;
      end;
      $$;
      drop trigger incident_reporting_inserted on incident.incident;
      create trigger incident_reporting_inserted after insert on incident.incident
        referencing new table as inserted_cases for each statement
        execute function incident.reporting_cases_inserted();

      -- 2. A new case may say when the deadline scheduler is first to look at it (when its first clock enters the
      -- due-soon window, as the scheduler would plan it): looked at "now", every case was rewritten by the
      -- scheduler's next scan only to be told that nothing was due for days, each one a second write of the row
      -- and its indexes. A case inserted without it is looked at now, as before.
      create or replace function incident.wake_deadline_scheduler() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          new.deadline_check_at := case when new.status = 'CLOSED' then null else coalesce(new.deadline_check_at, now()) end;
        elsif (new.status, new.acknowledged_at, new.feedback_at, new.closed_at, new.acknowledgement_due_at,
               new.feedback_due_at, new.resolution_due_at)
              is distinct from (old.status, old.acknowledged_at, old.feedback_at, old.closed_at,
               old.acknowledgement_due_at, old.feedback_due_at, old.resolution_due_at) then
          -- A closed case has no running clock: nothing to look at until it is reopened.
          new.deadline_check_at := case when new.status = 'CLOSED' then null else now() end;
        end if;
        return new;
      end;
      $$;
    `,
  },
  {
    // One tenant role per schema (docs/security.md, "Tenant isolation"): the schema's own role replaces the one every
    // service shared, which keeps no right here. Another service's login can no longer switch to a role that
    // reaches this schema.
    id: '015_tenant_role_per_schema',
    sql: tenantRolePerSchemaSql(INCIDENT_SCHEMA),
  },
  {
    // The revocation list is @whistle/tokens' now (its 000_token_revocation, in this schema): the logged-out tokens
    // move there, and so do the removals of the last day (a removed member’s tokens stay refused).
    // Self-contained SQL: this text never changes with the package.
    id: '016_token_revocation_list',
    sql: `
      insert into incident.token_revocation (jti, expires_at)
        select jti, expires_at from incident.revoked_token where expires_at > now()
        on conflict (jti) do nothing;
      drop table incident.revoked_token;
      insert into incident.user_session_revocation (user_id, not_before, forget_after)
        select user_id::text, date_trunc('second', removed_at) + interval '1 second', removed_at + interval '1 day'
          from incident.staff_member where removed_at > now() - interval '1 day'
        on conflict (user_id) do nothing;
    `,
  },
  {
    // The message a case was closed with (PUT final_message): the reporter's page shows it as how the case ended.
    id: '017_final_message',
    sql: `alter table incident.message add column final boolean not null default false;`,
  },
  {
    // Proofs of work spent on a report (docs/security.md, "Report flooding"): a challenge serves one report. The
    // idempotency key's hash lets the same report, sent again after a lost answer, through; rows go at expiry.
    id: '018_proof_of_work_spent',
    sql: `
      create table incident.proof_of_work_spent (
        challenge_id text primary key,
        idempotency_key_hash text,
        expires_at timestamptz not null
      );
      create index proof_of_work_spent_expires_idx on incident.proof_of_work_spent (expires_at);
    `,
  },
  // ---- 019_company_key_rotation: appended on its own (it may move to its own file with the others) ----
  {
    // A company key rotation (docs/security.md, "Rotation"). Which company key version a case's wrapping is under
    // (null: not known — cases from before, and reports, which name no version: the rotating browser tries the keys
    // it holds), and the company's current and previous versions from auth's events.
    id: '019_company_key_rotation',
    sql: `
      alter table incident.incident add column company_key_version integer;
      alter table incident.company
        add column key_version integer not null default 1,
        add column previous_key_version integer;
    `,
  },
  // ---- end of 019_company_key_rotation ----
];
