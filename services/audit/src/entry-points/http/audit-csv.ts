import { stringify, type Stringifier } from 'csv-stringify';
import type { AuditLogEntry } from '@whistle/contracts';

/**
 * The audit trail as CSV: a header, then one record a row (`auditCsv.row`). A cell that starts with = + - @, a tab
 * or CR gets a leading ' (escape_formulas): a staff member's own full name would otherwise run as a formula in the
 * admin's spreadsheet (CSV injection).
 */
export function auditCsv(): Stringifier {
  return stringify({
    header: true,
    escape_formulas: true,
    columns: ['Date (UTC)', 'Action', 'Result', 'Actor', 'Actor type', 'Object type', 'Object', 'Case'],
  });
}

/** One entry's record: ids, action and the actor's name, never report content. */
auditCsv.row = (entry: AuditLogEntry): string[] => [
  entry.occurred_at,
  entry.action,
  entry.success ? 'success' : 'failure',
  entry.actor.name,
  entry.actor.type,
  entry.table_identifier,
  entry.object_uuid ?? '',
  entry.incident_uuid ?? '',
];
