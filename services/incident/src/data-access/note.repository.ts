import type { Queryable } from '@whistle/service-kit';

export interface NoteRow {
  id: string;
  incident_id: string;
  content: string;
  author_user_id: string;
  author_name: string;
  created_at: Date;
}

const COLUMNS = 'id, incident_id, content, author_user_id, author_name, created_at';

/** Private staff notes of a case (encrypted content), scoped by company. */
export const noteRepository = {
  async insert(
    db: Queryable,
    note: {
      id: string;
      incidentId: string;
      companyId: string;
      content: string;
      authorUserId: string;
      authorName: string;
    },
  ): Promise<NoteRow> {
    const { rows } = await db.query<NoteRow>(
      `insert into incident.note (id, incident_id, company_id, content, author_user_id, author_name)
       values ($1, $2, $3, $4, $5, $6) returning ${COLUMNS}`,
      [note.id, note.incidentId, note.companyId, note.content, note.authorUserId, note.authorName],
    );
    return rows[0]!;
  },

  async ofIncident(db: Queryable, companyId: string, incidentId: string): Promise<NoteRow[]> {
    const { rows } = await db.query<NoteRow>(
      `select ${COLUMNS} from incident.note where company_id = $1 and incident_id = $2 order by created_at, id`,
      [companyId, incidentId],
    );
    return rows;
  },
};
