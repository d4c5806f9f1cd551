import type { ReportField } from '@whistle/contracts';
import type { Queryable } from '@whistle/service-kit';
import { EARLIER_REQUEST, earlierReportOf, type EarlierReport } from './report-request.repository';

/** A new report (incidentRepository.newReportStatement). */
export interface NewIncidentRow {
  id: string;
  companyId: string;
  retrievalId: string;
  reportChannel: string;
  reportAnonymously: boolean;
  locationId: string;
  publicKey: string;
  aesEncryptedPrivateKey: string;
  aesSalt: string;
  aesIv: string;
  companyEncryptedPassphrase: string;
  discloserEncryptedPassphrase: string;
  discloserAuthTokenHash: string;
  /** The company's internal target for this case, in days (its resolution clock). */
  resolutionDeadlineDays: number;
  /** Its labels: the first top-level one names it in the category__name sort. */
  categoryIds: readonly string[];
  /** Encrypted to the incident key in the browser, stored in this order. */
  fields: readonly ReportField[];
  /** Staff who get the case by default (its labels' assignees). */
  assigneeIds: readonly string[];
  /** Its number (incidentRepository.takeReportNumber). */
  displayReportNumber: number;
  /** The browser's Idempotency-Key and the hash of the request it came with. */
  idempotency?: { key: string; requestHash: string };
}

export interface DiscloserIncidentRow {
  id: string;
  company_id: string;
  display_report_number: number;
  status: string;
  report_channel: string;
  report_anonymously: boolean;
  location_id: string;
  location_name: string;
  public_key: string;
  aes_encrypted_private_key: string;
  aes_salt: string;
  aes_iv: string;
  discloser_encrypted_passphrase: string;
  discloser_auth_token_hash: string;
  created_at: Date;
  updated_at: Date;
  last_activity_at: Date;
}

/** Plain SQL over the incident schema; every read of tenant rows is scoped by company id. */
export const incidentRepository = {
  /**
   * The company's next report number, or the report an earlier request stored under the same Idempotency-Key (a
   * retry takes no number). Committed on its own without waiting for the WAL flush (synchronous_commit off for
   * this statement alone), so the counter's row lock is held only while the server runs it: a company's reports do
   * not queue behind each other's flushes. Nothing is lost by it: the report that uses the number is committed
   * durably after it, and that flush writes this earlier commit too. A crash in between can only leave the
   * number unused (a gap), as can a report refused after this (two copies of one retried request at once).
   */
  async takeReportNumber(
    db: Queryable,
    companyId: string,
    idempotencyKey: string | null,
  ): Promise<{ number: number; earlier?: undefined } | { number?: undefined; earlier: EarlierReport }> {
    const { rows } = await db.query<{
      number: number | null;
      request_hash: string | null;
      incident_id: string | null;
      retrieval_id: string | null;
    }>(
      `with earlier as (${EARLIER_REQUEST}),
       taken as (
         update incident.company set next_report_number = next_report_number + 1
          where id = $1 and not exists (select 1 from earlier)
            and set_config('synchronous_commit', 'off', true) = 'off'
         returning next_report_number - 1 as number)
       select (select number from taken) as number, earlier.*
         from (select 1) as one left join earlier on true`,
      [companyId, idempotencyKey],
      { name: 'incident-take-report-number' },
    );
    const row = rows[0]!;
    const earlier = earlierReportOf(row);
    if (earlier) return { earlier };
    if (row.number === null) throw new Error(`Company ${companyId} has no report counter`);
    return { number: row.number };
  },

  /**
   * A new report, numbered, as one statement's CTEs (run by `WriteWithEvents` with its events): its
   * Idempotency-Key claimed (if any), the case with its labels, encrypted fields (in the order the form sent them)
   * and default assignees. A key another request claimed meanwhile stores nothing (`created` is empty).
   */
  newReportStatement(row: NewIncidentRow): { ctes: string; params: unknown[]; select: string; stored: string } {
    return {
      ctes: `claim as (
          insert into incident.report_request (company_id, idempotency_key, request_hash, incident_id)
          select $2, $18::text, $19, $1 where $18::text is not null
          on conflict do nothing returning 1 as claimed),
        created as (
          insert into incident.incident (id, company_id, display_report_number, retrieval_id, report_channel,
            report_anonymously, location_id, public_key, aes_encrypted_private_key, aes_salt, aes_iv,
            company_encrypted_passphrase, discloser_encrypted_passphrase, discloser_auth_token_hash,
            acknowledgement_due_at, feedback_due_at, resolution_due_at, sort_category)
          select $1, $2, $21, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13,
            now() + interval '7 days', now() + interval '7 days' + interval '3 months', now() + make_interval(days => $14::int),
            coalesce((select c.name from incident.category c
                       where c.company_id = $2 and c.id = any($15::uuid[]) and c.parent_id is null order by c.name limit 1), '')
           where $18::text is null or exists (select 1 from claim)
          returning id),
        labels as (
          insert into incident.incident_category (incident_id, category_id)
          select created.id, label.id from created, unnest($15::uuid[]) as label(id)),
        fields as (
          insert into incident.incident_field (incident_id, name, value, position)
          select created.id, f.name, f.value, f.position - 1
            from created, unnest($16::text[], $17::text[]) with ordinality as f(name, value, position)),
        assigned as (
          insert into incident.assignee (incident_id, user_id, company_id)
          select created.id, assignee.id, $2 from created, unnest($20::uuid[]) as assignee(id))`,
      params: [
        row.id,
        row.companyId,
        row.retrievalId,
        row.reportChannel,
        row.reportAnonymously,
        row.locationId,
        row.publicKey,
        row.aesEncryptedPrivateKey,
        row.aesSalt,
        row.aesIv,
        row.companyEncryptedPassphrase,
        row.discloserEncryptedPassphrase,
        row.discloserAuthTokenHash,
        row.resolutionDeadlineDays,
        row.categoryIds,
        row.fields.map((field) => field.name),
        row.fields.map((field) => field.value),
        row.idempotency?.key ?? null,
        row.idempotency?.requestHash ?? null,
        row.assigneeIds,
        row.displayReportNumber,
      ],
      select: 'select exists (select 1 from created) as created',
      stored: 'exists (select 1 from created)',
    };
  },

  /** The incident a secret code points at, if its retrieval id belongs to the company of `urlIdentifier`. */
  async findForDiscloser(
    db: Queryable,
    urlIdentifier: string,
    retrievalId: string,
  ): Promise<DiscloserIncidentRow | undefined> {
    const { rows } = await db.query<DiscloserIncidentRow>(
      `select i.id, i.company_id, i.display_report_number, i.status, i.report_channel, i.report_anonymously, i.location_id,
              l.name as location_name, i.public_key, i.aes_encrypted_private_key, i.aes_salt, i.aes_iv,
              i.discloser_encrypted_passphrase, i.discloser_auth_token_hash, i.created_at, i.updated_at, i.last_activity_at
         from incident.incident i
         join incident.company c on c.id = i.company_id
         join incident.location l on l.id = i.location_id
        where i.retrieval_id = $1 and c.url_identifier = $2`,
      [retrievalId, urlIdentifier],
    );
    return rows[0];
  },

  async categoriesOf(db: Queryable, companyId: string, incidentId: string) {
    const { rows } = await db.query<{ uuid: string; name: string; parent_uuid: string | null }>(
      `select c.id as uuid, c.name, c.parent_id as parent_uuid
         from incident.incident_category ic join incident.category c on c.id = ic.category_id
        where ic.incident_id = $1 and c.company_id = $2
        order by c.parent_id nulls first, c.name`,
      [incidentId, companyId],
    );
    return rows;
  },

  async fieldsOf(db: Queryable, incidentId: string) {
    // Names were checked against the report form inputs when stored.
    const { rows } = await db.query<ReportField>(
      'select name, value from incident.incident_field where incident_id = $1 order by position',
      [incidentId],
    );
    return rows;
  },

  async incidentExists(db: Queryable, companyId: string, incidentId: string): Promise<boolean> {
    const { rows } = await db.query('select 1 from incident.incident where company_id = $1 and id = $2', [
      companyId,
      incidentId,
    ]);
    return rows.length > 0;
  },

  /** Moves the case's last activity forward (a message, a file, a status change, a note). */
  async touch(db: Queryable, companyId: string, incidentId: string, at: Date | string = new Date()): Promise<void> {
    await db.query(
      'update incident.incident set last_activity_at = greatest(last_activity_at, $3::timestamptz) where company_id = $1 and id = $2',
      [companyId, incidentId, at],
    );
  },
};
