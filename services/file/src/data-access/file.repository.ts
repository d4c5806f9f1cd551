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
