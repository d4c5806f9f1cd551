import type { Queryable } from '@whistle/service-kit';

export interface FileRow {
  id: string;
  company_id: string;
  incident_id: string;
  incident_message_id: string | null;
  object_key: string;
  file_name: string;
  encrypted_key: string;
  file_size: string | number;
  mime_type: string;
  created_at: Date;
}

const columns =
  'id, company_id, incident_id, incident_message_id, object_key, file_name, encrypted_key, file_size, mime_type, created_at';

/** Plain SQL over the file schema; reads are scoped by company and incident. */
export const fileRepository = {
  async insert(db: Queryable, file: Omit<FileRow, 'created_at'>): Promise<FileRow> {
    const { rows } = await db.query<FileRow>(
      `insert into file.file (id, company_id, incident_id, incident_message_id, object_key, file_name, encrypted_key, file_size, mime_type)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning ${columns}`,
      [
        file.id,
        file.company_id,
        file.incident_id,
        file.incident_message_id,
        file.object_key,
        file.file_name,
        file.encrypted_key,
        file.file_size,
        file.mime_type,
      ],
    );
    return rows[0];
  },

  /**
   * Serialises an upload's commit with the deletion of its case: the deletion takes the case's lock exclusively,
   * uploads share it. So an upload either commits before the deletion (which then sees its row) or sees the
   * deletion's mark. Released at the end of the transaction.
   */
  async lockIncident(tx: Queryable, incidentId: string, mode: 'upload' | 'delete'): Promise<void> {
    await tx.query(
      mode === 'delete'
        ? 'select pg_advisory_xact_lock(hashtextextended($1, 0))'
        : 'select pg_advisory_xact_lock_shared(hashtextextended($1, 0))',
      [`file.incident:${incidentId}`],
    );
  },

  async isIncidentDeleted(db: Queryable, incidentId: string): Promise<boolean> {
    const { rows } = await db.query('select 1 from file.deleted_incident where incident_id = $1', [incidentId]);
    return rows.length > 0;
  },

  async markIncidentDeleted(db: Queryable, companyId: string, incidentId: string): Promise<void> {
    await db.query(
      'insert into file.deleted_incident (incident_id, company_id) values ($1, $2) on conflict do nothing',
      [incidentId, companyId],
    );
  },

  /** Where the case's files are in the object store. */
  async objectKeysOf(db: Queryable, companyId: string, incidentId: string): Promise<string[]> {
    const { rows } = await db.query<{ object_key: string }>(
      'select object_key from file.file where company_id = $1 and incident_id = $2 order by object_key',
      [companyId, incidentId],
    );
    return rows.map((row) => row.object_key);
  },

  async deleteOfIncident(db: Queryable, companyId: string, incidentId: string): Promise<void> {
    await db.query('delete from file.file where company_id = $1 and incident_id = $2', [companyId, incidentId]);
  },

  async find(
    db: Queryable,
    scope: { companyId: string; incidentId: string },
    id: string,
  ): Promise<FileRow | undefined> {
    const { rows } = await db.query<FileRow>(
      `select ${columns} from file.file where company_id = $1 and incident_id = $2 and id = $3`,
      [scope.companyId, scope.incidentId, id],
    );
    return rows[0];
  },
};
