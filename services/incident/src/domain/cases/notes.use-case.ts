import { randomUUID } from 'node:crypto';
import type { IncidentNote } from '@whistle/contracts';
import type { Database, UnitOfWork } from '@whistle/service-kit';
import { incidentRepository } from '../../data-access/incident.repository';
import { noteRepository, type NoteRow } from '../../data-access/note.repository';
import { staffActor } from '../access/incident-actor';
import type { StaffViewer } from '../access/staff-access';

const toNote = (row: NoteRow): IncidentNote => ({
  uuid: row.id,
  incident_uuid: row.incident_id,
  content: row.content,
  created: row.created_at.toISOString(),
  author: { uuid: row.author_user_id, full_name: row.author_name },
});

/**
 * POST /api/incident/note/: a private note on a case the viewer may see, encrypted to the incident key in
 * their browser. Staff only; the discloser never reads notes, and no event carries one.
 */
export async function addNote(
  deps: { unitOfWork: UnitOfWork },
  viewer: StaffViewer,
  incidentId: string,
  content: string,
): Promise<IncidentNote> {
  return deps.unitOfWork(async (tx) => {
    const author = await staffActor(tx, viewer, incidentId);
    const row = await noteRepository.insert(tx, {
      id: randomUUID(),
      incidentId,
      companyId: viewer.companyId,
      content,
      authorUserId: viewer.userId,
      authorName: author.name,
    });
    await incidentRepository.touch(tx, viewer.companyId, incidentId, row.created_at);
    await tx.addEvent({
      name: 'incident.note.created',
      company_id: viewer.companyId,
      payload: { incident_id: incidentId, incident_note_id: row.id },
      actor: { type: 'STAFF', user_id: viewer.userId },
    });
    return toNote(row);
  });
}

/** GET /api/incident/{uuid}/note: the case's notes, oldest first. */
export async function listNotes(db: Database, viewer: StaffViewer, incidentId: string): Promise<IncidentNote[]> {
  await staffActor(db, viewer, incidentId);
  return (await noteRepository.ofIncident(db, viewer.companyId, incidentId)).map(toNote);
}
