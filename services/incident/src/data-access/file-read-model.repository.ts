import type { Queryable } from '@whistle/service-kit';

export interface FileRow {
  id: string;
  incident_id: string;
  incident_message_id: string | null;
  file_size: string | number;
  mime_type: string;
  created_at: Date;
}

/** The incident's files as the file service announced them (metadata only), scoped by company. */
export const fileReadModelRepository = {
  async upsert(
    db: Queryable,
    file: {
      id: string;
      incidentId: string;
      companyId: string;
      incidentMessageId: string | null;
      fileSize: number;
      mimeType: string;
      createdAt: string;
    },
  ): Promise<void> {
    // Only for a case that exists: an announcement arriving after the case was deleted (retention) leaves no row.
    await db.query(
      `insert into incident.file (id, incident_id, company_id, incident_message_id, file_size, mime_type, created_at)
       select $1::uuid, $2::uuid, $3::uuid, $4::uuid, $5::bigint, $6::text, $7::timestamptz
        where exists (select 1 from incident.incident where id = $2::uuid and company_id = $3::uuid)
       on conflict (id) do nothing`,
      [file.id, file.incidentId, file.companyId, file.incidentMessageId, file.fileSize, file.mimeType, file.createdAt],
    );
  },

  async ofIncident(db: Queryable, companyId: string, incidentId: string): Promise<FileRow[]> {
    const { rows } = await db.query<FileRow>(
      `select id, incident_id, incident_message_id, file_size, mime_type, created_at from incident.file
        where company_id = $1 and incident_id = $2 order by created_at, id`,
      [companyId, incidentId],
    );
    return rows;
  },
};
