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
  uploader: 'DISCLOSER' | 'STAFF' | null;
  /** A staff file's signature (migration 006): all four, or all null. */
  signer_key_id: string | null;
  signature_nonce: string | null;
  signature: string | null;
  content_digest: string | null;
  created_at: Date;
}

/** What a case already holds, against the upload limits. */
export interface IncidentUsage {
  incidentFiles: number;
  incidentBytes: number;
  /** Files of the message the upload names (of the report itself when it names none). */
  messageFiles: number;
  discloserUploadsLastHour: number;
}

const columns =
  'id, company_id, incident_id, incident_message_id, object_key, file_name, encrypted_key, file_size, mime_type, uploader, ' +
  'signer_key_id, signature_nonce, signature, content_digest, created_at';

/** Plain SQL over the file schema; reads are scoped by company and incident. */
export const fileRepository = {
  async insert(db: Queryable, file: Omit<FileRow, 'created_at'>): Promise<FileRow> {
    const { rows } = await db.query<FileRow>(
      `insert into file.file (id, company_id, incident_id, incident_message_id, object_key, file_name, encrypted_key, file_size, mime_type, uploader,
                              signer_key_id, signature_nonce, signature, content_digest)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) returning ${columns}`,
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
        file.uploader,
        file.signer_key_id,
        file.signature_nonce,
        file.signature,
        file.content_digest,
      ],
    );
    return rows[0];
  },

  /**
   * Serialises the commits of a case's uploads with each other and with the deletion of the case: an upload
   * counts the case's files and bytes against the limits and inserts under this lock, so two concurrent uploads
   * cannot both take the last place; and it either commits before the deletion (which then sees its row) or
   * sees the deletion's mark. Held only for that short transaction, not while the bytes stream.
   */
  async lockIncident(tx: Queryable, incidentId: string): Promise<void> {
    await tx.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`file.incident:${incidentId}`]);
  },

  async usage(
    db: Queryable,
    scope: { companyId: string; incidentId: string },
    messageId: string | null,
  ): Promise<IncidentUsage> {
    const { rows } = await db.query<{
      incident_files: number;
      incident_bytes: string;
      message_files: number;
      discloser_last_hour: number;
    }>(
      `select count(*)::int as incident_files,
              coalesce(sum(file_size), 0)::text as incident_bytes,
              (count(*) filter (where incident_message_id is not distinct from $3::uuid))::int as message_files,
              (count(*) filter (where uploader = 'DISCLOSER' and created_at > now() - interval '1 hour'))::int
                as discloser_last_hour
         from file.file where company_id = $1 and incident_id = $2`,
      [scope.companyId, scope.incidentId, messageId],
    );
    const row = rows[0]!;
    return {
      incidentFiles: row.incident_files,
      incidentBytes: Number(row.incident_bytes),
      messageFiles: row.message_files,
      discloserUploadsLastHour: row.discloser_last_hour,
    };
  },

  /** incident.message.created: the message is one of its case's (a redelivery changes nothing). */
  async rememberMessage(db: Queryable, message: { id: string; companyId: string; incidentId: string }): Promise<void> {
    // A message announced after its case was deleted (a late redelivery) is not kept: the case takes no file.
    await db.query(
      `insert into file.incident_message (id, company_id, incident_id)
       select $1, $2, $3 where not exists (select 1 from file.deleted_incident where incident_id = $3)
       on conflict do nothing`,
      [message.id, message.companyId, message.incidentId],
    );
  },

  /** Whether the message is one of the case's (a message of another case or company is not). */
  async isMessageOf(db: Queryable, scope: { companyId: string; incidentId: string }, messageId: string) {
    const { rows } = await db.query(
      'select 1 from file.incident_message where id = $1 and company_id = $2 and incident_id = $3',
      [messageId, scope.companyId, scope.incidentId],
    );
    return rows.length > 0;
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
    await db.query('delete from file.incident_message where company_id = $1 and incident_id = $2', [
      companyId,
      incidentId,
    ]);
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
