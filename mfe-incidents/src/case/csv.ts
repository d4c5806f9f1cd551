import Papa from 'papaparse';
import type { IncidentExportRow } from '@whistle/contracts';
import type { Identity } from './case-key';

/** Spec §9: the CSV export's columns, in this order. */
export const CSV_COLUMNS = [
  'Incident ID',
  'Location',
  'Date created',
  'Date updated',
  'Category',
  'Sub-categories',
  'Identity',
  'Status',
] as const;

const two = (value: number) => String(value).padStart(2, '0');

/** Spec §9: year-month-day hours:minutes:seconds, in the viewer's time zone (as the list shows times). */
export function csvTimestamp(iso: string): string {
  const date = new Date(iso);
  return (
    `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ` +
    `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`
  );
}

/** One case as a CSV record of the spec's columns. */
export function csvRecord(row: IncidentExportRow, identity: Identity): string[] {
  const top = row.management_categories.filter((category) => category.parent_uuid === null);
  const sub = row.management_categories.filter((category) => category.parent_uuid !== null);
  return [
    // Spec §9: the display report number, else the uuid.
    row.display_report_number ? String(row.display_report_number) : row.uuid,
    row.location.name,
    csvTimestamp(row.created),
    csvTimestamp(row.updated),
    top.map((category) => category.name).join(', '),
    sub.map((category) => category.name).join(', '),
    identity.kind === 'anonymous' ? 'Anonymous' : identity.kind === 'named' ? identity.name : 'Identified',
    row.status.name,
  ];
}

/**
 * The CSV text: the header and the records, quoted and escaped by the CSV library, CRLF line ends. A cell that
 * starts with = + - @, a tab or CR gets a leading ' (escapeFormulae): a discloser's name or a label would otherwise
 * run as a formula in the spreadsheet that opens the export (CSV injection).
 */
export const toCsv = (records: readonly string[][]): string =>
  Papa.unparse({ fields: [...CSV_COLUMNS], data: records as string[][] }, { newline: '\r\n', escapeFormulae: true });
