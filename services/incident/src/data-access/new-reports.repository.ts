import type { ReportField } from '@whistle/contracts';
import type { Queryable } from '@whistle/service-kit';
import { earlierReportOf, type EarlierReport } from './report-request.repository';
import { intervalParam, type CalendarLength } from './sql-interval';

/** What a report asks for, before it is numbered (newReportsRepository.number). */
export interface ReportRequest {
  urlIdentifier: string;
  /** The browser's Idempotency-Key, if it sent one. */
  idempotencyKey: string | null;
  /** Without repeats. */
  categoryIds: readonly string[];
  locationId: string;
}

/** What became of a report request once numbered: a report to store, a retry, or a request that cannot be one. */
export type Numbering =
  | { kind: 'unknown-company' }
  | { kind: 'invalid'; companyId: string; unknownCategory: boolean; unknownLocation: boolean }
  | { kind: 'earlier'; companyId: string; earlier: EarlierReport }
  | {
      kind: 'numbered';
      companyId: string;
      number: number;
      /** The company's internal target for its cases, in days (the resolution clock). */
      resolutionDeadlineDays: number;
      /** Current staff members who get reports of the requested labels by default. */
      assigneeIds: string[];
    };

/** A new report, numbered (newReportsRepository.storeStatement). */
export interface NewReport {
  id: string;
  companyId: string;
  displayReportNumber: number;
  retrievalId: string;
  reportChannel: string;
  reportAnonymously: boolean;
  locationId: string;
  publicKey: string;
  aesEncryptedPrivateKey: string;
  aesSalt: string;
  aesIv: string;
  /** Null when its discloser kept an admin out: then only per-case grants open it. */
  companyEncryptedPassphrase: string | null;
  discloserEncryptedPassphrase: string;
  /** The sealed team key list (docs/security.md, "Signed staff messages"), stored as sent. */
  discloserTeamKeys: string | null;
  discloserAuthTokenHash: string;
  /** How long after receipt its resolution clock runs (the company's deadline). */
  resolutionDueIn: CalendarLength;
  /** Its labels: the first top-level one names it in the category__name sort. */
  categoryIds: readonly string[];
  /** Encrypted to the incident key in the browser, stored in this order. */
  fields: readonly ReportField[];
  /** Staff who get the case by default (its labels' assignees). */
  assigneeIds: readonly string[];
  /** The company key version its passphrase is wrapped to, as the report names it (null: not named). */
  companyKeyVersion: number | null;
  /** The staff member who recorded a report taken by telephone or in a meeting (art. 18); null: the discloser's. */
  recordedBy: string | null;
  /**
   * Per-case grants the discloser's browser made, by the opaque key id the public company view listed: stored only
   * for a key that is the current key of one of `granteeIds`; any other is left out.
   */
  grants: readonly { keyId: string; wrappedPassphrase: string }[];
  /** Whose grants are stored: its assignees, and its admins and reviewers when it has no company wrapping. */
  granteeIds: readonly string[];
  /** Whom its discloser kept out (docs/security.md, "Keeping people out"): stored as exclusions `by_reporter`. */
  excludedUserIds: readonly string[];
  /** The browser's Idempotency-Key and the hash of the request it came with. */
  idempotency?: { key: string; requestHash: string };
}

/**
 * Report creation's two statements, each for a batch of reports (docs/performance.md, "Report creation"). Both
 * take arrays, so a batch of any size is one round trip each, and their text never changes (prepared once).
 */
export const newReportsRepository = {
  /**
   * Checks each request against the company's read model (its company, active labels and location, the labels'
   * assignees who are current staff), finds a retry's earlier report by its key (a retry takes no number), and
   * numbers the others: each company's counter moves once by its count of new reports, which take the numbers in
   * the order of `requests`. Counters are locked in id order, so batches of several companies never deadlock.
   *
   * Committed on its own without waiting for the WAL flush (synchronous_commit off for this statement alone): a
   * counter's row lock is held only while the server runs it, never through a flush or a round trip, so no
   * company's reports queue behind each other's. Nothing is lost by it: the reports that use the numbers are
   * committed durably after it, and that flush writes this commit too. A crash in between, a report that fails
   * after this, or two copies of one retried request at once can only leave a number unused (a gap).
   */
  async number(db: Queryable, requests: readonly ReportRequest[]): Promise<Numbering[]> {
    const { rows } = await db.query<{
      company_id: string | null;
      resolution_deadline_days: number | null;
      categories_known: boolean;
      location_known: boolean;
      assignee_ids: string[];
      request_hash: string | null;
      incident_id: string | null;
      retrieval_id: string | null;
      earlier_number: number | null;
      number: number | null;
    }>(
      `with request as (
         select * from jsonb_to_recordset($1::jsonb)
           as r(ord int, url_identifier text, idempotency_key text, category_ids uuid[], location_id uuid)),
       context as (
         select r.ord, c.id as company_id, c.resolution_deadline_days,
                (select count(*) from incident.category l
                   left join incident.category parent on parent.company_id = l.company_id and parent.id = l.parent_id
                  where l.company_id = c.id and l.id = any(r.category_ids) and l.is_active
                    and (l.parent_id is null or parent.is_active)) = cardinality(r.category_ids) as categories_known,
                exists (select 1 from incident.location l
                         where l.company_id = c.id and l.id = r.location_id and l.is_active) as location_known,
                array(select distinct s.user_id::text from incident.category l
                        cross join unnest(l.assignee_ids) as assignee(user_id)
                        join incident.staff_member s on s.company_id = c.id and s.user_id = assignee.user_id
                       where l.company_id = c.id and l.id = any(r.category_ids) and s.removed_at is null) as assignee_ids,
                earlier.request_hash, earlier.incident_id, earlier.retrieval_id, earlier.earlier_number
           from request r
           left join incident.company c on c.url_identifier = r.url_identifier
           left join lateral (
             select q.request_hash, q.incident_id, i.retrieval_id, i.display_report_number as earlier_number
               from incident.report_request q join incident.incident i on i.id = q.incident_id
              where q.company_id = c.id and q.idempotency_key = r.idempotency_key) earlier on true),
       wanted as (
         select ord, company_id, row_number() over (partition by company_id order by ord) as nth
           from context
          where company_id is not null and categories_known and location_known and incident_id is null),
       locked as (
         select c.id from incident.company c
          where c.id in (select company_id from wanted) order by c.id for no key update),
       taken as (
         update incident.company c set next_report_number = c.next_report_number + w.count
           from (select company_id, count(*)::int as count from wanted group by company_id) w
          where c.id = w.company_id and c.id in (select id from locked)
            and set_config('synchronous_commit', 'off', true) = 'off'
         returning c.id, c.next_report_number - w.count as first)
       select context.company_id, context.resolution_deadline_days, context.categories_known, context.location_known,
              context.assignee_ids, context.request_hash, context.incident_id, context.retrieval_id,
              context.earlier_number,
              (taken.first + wanted.nth - 1)::int as number
         from context
         left join wanted on wanted.ord = context.ord
         left join taken on taken.id = wanted.company_id
        order by context.ord`,
      [
        JSON.stringify(
          requests.map((request, ord) => ({
            ord,
            url_identifier: request.urlIdentifier,
            idempotency_key: request.idempotencyKey,
            category_ids: request.categoryIds,
            location_id: request.locationId,
          })),
        ),
      ],
      { name: 'incident-number-reports' },
    );
    if (rows.length !== requests.length) throw new Error(`${requests.length} reports numbered as ${rows.length}`);
    return rows.map((row): Numbering => {
      if (!row.company_id) return { kind: 'unknown-company' };
      const earlier = earlierReportOf(row);
      if (earlier) return { kind: 'earlier', companyId: row.company_id, earlier };
      if (!row.categories_known || !row.location_known)
        return {
          kind: 'invalid',
          companyId: row.company_id,
          unknownCategory: !row.categories_known,
          unknownLocation: !row.location_known,
        };
      if (row.number === null) throw new Error(`Company ${row.company_id} has no report counter`);
      return {
        kind: 'numbered',
        companyId: row.company_id,
        number: row.number,
        resolutionDeadlineDays: row.resolution_deadline_days!,
        assigneeIds: row.assignee_ids,
      };
    });
  },

  /**
   * New reports as one statement's CTEs (run by `WriteWithEvents` with their events): each one's Idempotency-Key
   * claimed (if any), the case with its labels, encrypted fields (in the order the form sent them) and default
   * assignees. A report whose key another request claimed meanwhile stores nothing. `select` answers the ids of
   * the reports stored (`created_ids`); `eventStored` holds for an event whose payload names one of them.
   *
   * A report that names its company key version is stored only while the company keeps that key: the current one,
   * the previous one during a rotation, or the next one (auth announced a rotation whose event is still on its
   * way); any other is left out (`stale_key_ids`), since nobody could open it. The company rows are read under a
   * key-share lock, which a rotation's completion waits for (and blocks) with its update lock, so a report cannot
   * slip in under the previous key between completion's count and its commit. Numbering's no-key-update lock does
   * not conflict with it: reports still do not queue behind each other's flushes.
   *
   * Each case's clocks start now; the deadline scheduler first looks at it when its first clock enters the
   * due-soon window `dueSoonWindowMs` (or now, if one already has), as planReminders plans it.
   */
  storeStatement(
    reports: readonly NewReport[],
    {
      dueSoonWindowMs,
      acknowledgementDueIn,
      feedbackDueAfterAcknowledgement,
    }: {
      dueSoonWindowMs: number;
      /** The directive's clocks (domain/cases/legal-clocks.ts): acknowledgement from receipt. */
      acknowledgementDueIn: CalendarLength;
      /** Feedback, from the acknowledgement's due time. */
      feedbackDueAfterAcknowledgement: CalendarLength;
    },
  ): {
    ctes: string;
    params: unknown[];
    select: string;
    eventStored: string;
  } {
    const column = <T>(value: (report: NewReport) => T) => reports.map(value);
    const labels = reports.flatMap((report) => report.categoryIds.map((id) => [report.id, id] as const));
    const fields = reports.flatMap((report) =>
      report.fields.map((field, position) => [report.id, field.name, field.value, position] as const),
    );
    const assignees = reports.flatMap((report) => report.assigneeIds.map((id) => [report.id, id] as const));
    const grantees = reports.flatMap((report) => report.granteeIds.map((id) => [report.id, id] as const));
    const exclusions = reports.flatMap((report) => report.excludedUserIds.map((id) => [report.id, id] as const));
    const grants = reports.flatMap((report) =>
      report.grants.map((grant) => [report.id, grant.keyId, grant.wrappedPassphrase] as const),
    );
    return {
      ctes: `sent as (
          select * from unnest($1::uuid[], $2::uuid[], $3::int[], $4::text[], $5::text[], $6::bool[], $7::uuid[],
                               $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[],
                               $15::interval[], $16::text[], $17::text[], $29::int[], $30::uuid[], $38::text[])
            as r(id, company_id, display_report_number, retrieval_id, report_channel, report_anonymously, location_id,
                 public_key, aes_encrypted_private_key, aes_salt, aes_iv, company_encrypted_passphrase,
                 discloser_encrypted_passphrase, discloser_auth_token_hash, resolution_due_in, idempotency_key,
                 request_hash, company_key_version, recorded_by, discloser_team_keys)),
        company_key as (
          select c.id, c.key_version, c.previous_key_version from incident.company c
           where c.id in (select company_id from sent)
             for key share),
        report as (
          select s.* from sent s join company_key k on k.id = s.company_id
           where s.company_key_version is null
              or s.company_key_version in (k.key_version, k.previous_key_version, k.key_version + 1)),
        label as (select * from unnest($18::uuid[], $19::uuid[]) as l(incident_id, category_id)),
        claim as (
          insert into incident.report_request (company_id, idempotency_key, request_hash, incident_id)
          select company_id, idempotency_key, request_hash, id from report where idempotency_key is not null
          on conflict do nothing returning incident_id),
        created as (
          insert into incident.incident (id, company_id, display_report_number, retrieval_id, report_channel,
            report_anonymously, location_id, public_key, aes_encrypted_private_key, aes_salt, aes_iv,
            company_encrypted_passphrase, discloser_encrypted_passphrase, discloser_auth_token_hash,
            acknowledgement_due_at, feedback_due_at, resolution_due_at, deadline_check_at, sort_category,
            company_key_version, recorded_by, discloser_team_keys)
          select r.id, r.company_id, r.display_report_number, r.retrieval_id, r.report_channel, r.report_anonymously,
            r.location_id, r.public_key, r.aes_encrypted_private_key, r.aes_salt, r.aes_iv,
            r.company_encrypted_passphrase, r.discloser_encrypted_passphrase, r.discloser_auth_token_hash,
            due.acknowledgement, due.feedback, due.resolution,
            greatest(now(), least(due.acknowledgement, due.feedback, due.resolution)
                            - make_interval(secs => $26::double precision / 1000)),
            coalesce((select c.name from label l join incident.category c on c.id = l.category_id
                       where l.incident_id = r.id and c.company_id = r.company_id and c.parent_id is null
                       order by c.name limit 1), ''),
            r.company_key_version, r.recorded_by, r.discloser_team_keys
            from report r
            cross join lateral (
              select now() + $27::interval as acknowledgement,
                     now() + $27::interval + $28::interval as feedback,
                     now() + r.resolution_due_in as resolution) due
           where r.idempotency_key is null or r.id in (select incident_id from claim)
          returning id),
        labels as (
          insert into incident.incident_category (incident_id, category_id)
          select l.incident_id, l.category_id from label l where l.incident_id in (select id from created)),
        fields as (
          insert into incident.incident_field (incident_id, name, value, position)
          select f.incident_id, f.name, f.value, f.position
            from unnest($20::uuid[], $21::text[], $22::text[], $23::int[]) as f(incident_id, name, value, position)
           where f.incident_id in (select id from created)),
        assigned as (
          insert into incident.assignee (incident_id, user_id, company_id)
          select a.incident_id, a.user_id, r.company_id
            from unnest($24::uuid[], $25::uuid[]) as a(incident_id, user_id) join report r on r.id = a.incident_id
           where a.incident_id in (select id from created)),
        granted as (
          insert into incident.case_grant (incident_id, user_id, company_id, key_id, fingerprint, wrapped_passphrase)
          select g.incident_id, k.user_id, r.company_id, k.key_id, k.fingerprint, g.wrapped_passphrase
            from unnest($31::uuid[], $32::uuid[], $33::text[]) as g(incident_id, key_id, wrapped_passphrase)
            join report r on r.id = g.incident_id
            join incident.staff_key k on k.key_id = g.key_id and k.company_id = r.company_id
            join unnest($34::uuid[], $35::uuid[]) as a(incident_id, user_id)
              on a.incident_id = g.incident_id and a.user_id = k.user_id
           where g.incident_id in (select id from created)
          on conflict do nothing),
        excluded as (
          insert into incident.exclusion (incident_id, user_id, company_id, by_reporter)
          select x.incident_id, x.user_id, r.company_id, true
            from unnest($36::uuid[], $37::uuid[]) as x(incident_id, user_id) join report r on r.id = x.incident_id
           where x.incident_id in (select id from created))`,
      params: [
        column((report) => report.id),
        column((report) => report.companyId),
        column((report) => report.displayReportNumber),
        column((report) => report.retrievalId),
        column((report) => report.reportChannel),
        column((report) => report.reportAnonymously),
        column((report) => report.locationId),
        column((report) => report.publicKey),
        column((report) => report.aesEncryptedPrivateKey),
        column((report) => report.aesSalt),
        column((report) => report.aesIv),
        column((report) => report.companyEncryptedPassphrase),
        column((report) => report.discloserEncryptedPassphrase),
        column((report) => report.discloserAuthTokenHash),
        column((report) => intervalParam(report.resolutionDueIn)),
        column((report) => report.idempotency?.key ?? null),
        column((report) => report.idempotency?.requestHash ?? null),
        labels.map(([incidentId]) => incidentId),
        labels.map(([, categoryId]) => categoryId),
        fields.map(([incidentId]) => incidentId),
        fields.map(([, name]) => name),
        fields.map(([, , value]) => value),
        fields.map(([, , , position]) => position),
        assignees.map(([incidentId]) => incidentId),
        assignees.map(([, userId]) => userId),
        dueSoonWindowMs,
        intervalParam(acknowledgementDueIn),
        intervalParam(feedbackDueAfterAcknowledgement),
        column((report) => report.companyKeyVersion),
        column((report) => report.recordedBy),
        grants.map(([incidentId]) => incidentId),
        grants.map(([, keyId]) => keyId),
        grants.map(([, , wrapped]) => wrapped),
        grantees.map(([incidentId]) => incidentId),
        grantees.map(([, userId]) => userId),
        exclusions.map(([incidentId]) => incidentId),
        exclusions.map(([, userId]) => userId),
        column((report) => report.discloserTeamKeys),
      ],
      select: `select array(select id::text from created) as created_ids,
                      array(select id::text from sent where id not in (select id from report)) as stale_key_ids`,
      eventStored: `(e.event->'payload'->>'incident_id')::uuid in (select id from created)`,
    };
  },
};
