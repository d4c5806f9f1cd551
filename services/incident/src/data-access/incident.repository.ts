import type { ReportField } from '@whistle/contracts';
import type { Queryable } from '@whistle/service-kit';

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
  discloser_team_keys: string | null;
  discloser_auth_token_hash: string;
  created_at: Date;
  updated_at: Date;
  last_activity_at: Date;
  recorded_by: string | null;
  record_approved_at: Date | null;
}

/** Plain SQL over the incident schema; every read of tenant rows is scoped by company id. */
export const incidentRepository = {
  /** The incident a secret code points at, if its retrieval id belongs to the company of `urlIdentifier`. */
  async findForDiscloser(
    db: Queryable,
    urlIdentifier: string,
    retrievalId: string,
  ): Promise<DiscloserIncidentRow | undefined> {
    const { rows } = await db.query<DiscloserIncidentRow>(
      `select i.id, i.company_id, i.display_report_number, i.status, i.report_channel, i.report_anonymously, i.location_id,
              l.name as location_name, i.public_key, i.aes_encrypted_private_key, i.aes_salt, i.aes_iv,
              i.discloser_encrypted_passphrase, i.discloser_team_keys, i.discloser_auth_token_hash, i.created_at,
              i.updated_at, i.last_activity_at, i.recorded_by, i.record_approved_at
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

  /** The report fields of each case among `incidentIds` (already scoped by the caller), in form order. */
  async fieldsOfCases(db: Queryable, incidentIds: readonly string[]) {
    const { rows } = await db.query<ReportField & { incident_id: string }>(
      `select incident_id, name, value from incident.incident_field
        where incident_id = any($1::uuid[]) order by incident_id, position`,
      [incidentIds],
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
