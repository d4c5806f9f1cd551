import type { IncidentListItem, StaffMember } from '@whistle/contracts';
import type { Queryable } from '@whistle/service-kit';
import { caseRepository, type CaseRow } from '../../data-access/case.repository';
import { clocksOf } from './clocks';

/** What the list shows of each case: the row, its labels and its assignees (two queries for a whole page). */
export async function listItems(
  db: Queryable,
  companyId: string,
  rows: readonly CaseRow[],
): Promise<IncidentListItem[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const categories = await caseRepository.categoriesOf(db, companyId, ids);
  const assignees = await caseRepository.assigneesOf(db, companyId, ids);
  const now = new Date();
  return rows.map((row) => ({
    uuid: row.id,
    display_report_number: row.display_report_number,
    status: { name: row.status },
    outcome: row.outcome,
    report_channel: row.report_channel,
    report_anonymously: row.report_anonymously,
    created: row.created_at.toISOString(),
    updated: row.updated_at.toISOString(),
    last_activity_at: row.last_activity_at.toISOString(),
    location: { uuid: row.location_id, name: row.location_name },
    management_categories: categories
      .filter((category) => category.incident_id === row.id)
      .map(({ uuid, name, parent_uuid }) => ({ uuid, name, parent_uuid })),
    assignees: assignees
      .filter((assignee) => assignee.incident_id === row.id)
      .map(({ uuid, full_name }): StaffMember => ({ uuid, full_name })),
    clocks: clocksOf(row, now),
    full_name: row.full_name,
    keys: {
      credential: { public_key: row.public_key, aes_encrypted_private_key: row.aes_encrypted_private_key },
      aes_salt: row.aes_salt,
      aes_iv: row.aes_iv,
      company_encrypted_passphrase: row.company_encrypted_passphrase,
    },
  }));
}
