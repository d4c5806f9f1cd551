import Papa from 'papaparse';
import type { IncidentClockName, IncidentExportRow, IncidentOutcome, IncidentStatus } from '@whistle/contracts';
import type { Identity } from './case-key';
import { CLOCK_NAMES, INCIDENT_OUTCOMES, INCIDENT_STATUSES } from './case-vocabulary';

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
 * The extended export's columns, after the spec's (unchanged, first, in their order): what a case team
 * follows its work with. The deadline figures are the spec's timestamps too, so a spreadsheet sorts them.
 */
export const EXTENDED_COLUMNS = [
  'statusInWords',
  'outcome',
  'assignees',
  'acknowledgementDue',
  'acknowledgedAt',
  'feedbackDue',
  'feedbackGivenAt',
  'resolutionDue',
  'overdue',
] as const;
export type ExtendedColumn = (typeof EXTENDED_COLUMNS)[number];

/** The words of the extended export, in the viewer's language (the page translates, the worker writes). */
export interface ExtendedWords {
  columns: Record<ExtendedColumn, string>;
  statuses: Record<IncidentStatus, string>;
  outcomes: Record<IncidentOutcome, string>;
  clocks: Record<IncidentClockName, string>;
}

/** The extended export's words from the `incidents` translations (`translate` is its `t`). */
export function extendedWords(translate: (key: string) => string): ExtendedWords {
  const wordsOf = <K extends string>(keys: readonly K[], prefix: string) =>
    Object.fromEntries(keys.map((key) => [key, translate(`${prefix}.${key}`)])) as Record<K, string>;
  return {
    columns: wordsOf(EXTENDED_COLUMNS, 'export.columns'),
    statuses: wordsOf(INCIDENT_STATUSES, 'statuses'),
    outcomes: wordsOf(INCIDENT_OUTCOMES, 'outcomes'),
    clocks: wordsOf(CLOCK_NAMES, 'clocks'),
  };
}

/** One case's extended cells, in EXTENDED_COLUMNS order; a clock not yet stopped leaves its 'done' cell empty. */
export function extendedCells(row: IncidentExportRow, words: ExtendedWords): string[] {
  const { acknowledgement, feedback, resolution } = row.clocks;
  const doneAt = (at: string | null) => (at ? csvTimestamp(at) : '');
  return [
    words.statuses[row.status.name],
    row.outcome ? words.outcomes[row.outcome] : '',
    row.assignees.map((person) => person.full_name).join(', '),
    csvTimestamp(acknowledgement.due_at),
    doneAt(acknowledgement.done_at),
    csvTimestamp(feedback.due_at),
    doneAt(feedback.done_at),
    csvTimestamp(resolution.due_at),
    CLOCK_NAMES.filter((name) => row.clocks[name].state === 'overdue')
      .map((name) => words.clocks[name])
      .join(', '),
  ];
}

/** The header: the spec's columns, then the extended export's when asked. */
export const csvHeader = (words?: ExtendedWords): string[] => [
  ...CSV_COLUMNS,
  ...(words ? EXTENDED_COLUMNS.map((column) => words.columns[column]) : []),
];

/**
 * The CSV text: the header and the records, quoted and escaped by the CSV library, CRLF line ends. A cell that
 * starts with = + - @, a tab or CR gets a leading ' (escapeFormulae): a discloser's name or a label would otherwise
 * run as a formula in the spreadsheet that opens the export (CSV injection).
 */
export const toCsv = (records: readonly string[][], header: readonly string[] = CSV_COLUMNS): string =>
  Papa.unparse({ fields: [...header], data: records as string[][] }, { newline: '\r\n', escapeFormulae: true });
