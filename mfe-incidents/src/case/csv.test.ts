import Papa from 'papaparse';
import type { i18n } from 'i18next';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import {
  CSV_COLUMNS,
  EXTENDED_COLUMNS,
  csvHeader,
  csvRecord,
  csvTimestamp,
  extendedCells,
  extendedWords,
  toCsv,
  type ExtendedWords,
} from './csv';

const row = {
  uuid: '6f1c3f44-3b4e-4c55-8f5c-0c7f4c1b2a10',
  display_report_number: 12,
  status: { name: 'CLOSED' as const },
  report_anonymously: false,
  created: '2026-03-04T05:06:07.000Z',
  updated: '2026-03-05T08:09:10.000Z',
  location: { uuid: 'l', name: 'Lyon, "Part-Dieu"' },
  management_categories: [
    { uuid: 'a', name: 'Fraud', parent_uuid: null },
    { uuid: 'b', name: 'Bribery', parent_uuid: 'a' },
    { uuid: 'c', name: 'Theft', parent_uuid: null },
  ],
  full_name: 'v1.x',
  keys: {} as never,
  outcome: 'substantiated' as const,
  assignees: [
    { uuid: 'u1', full_name: 'Ada Lovelace' },
    { uuid: 'u2', full_name: 'Hal Handler' },
  ],
  clocks: {
    acknowledgement: {
      due_at: '2026-03-11T05:06:07.000Z',
      done_at: '2026-03-04T06:00:00.000Z',
      state: 'done' as const,
    },
    feedback: { due_at: '2026-06-04T06:00:00.000Z', done_at: null, state: 'overdue' as const },
    resolution: { due_at: '2026-09-01T06:00:00.000Z', done_at: null, state: 'due' as const },
  },
};

let english: ExtendedWords;
let french: ExtendedWords;
beforeAll(async () => {
  english = extendedWords((await initTestI18n<i18n>('en')).getFixedT('en', 'incidents'));
  french = extendedWords((await initTestI18n<i18n>('fr')).getFixedT('fr', 'incidents'));
});

describe('CSV export', () => {
  it('when a case becomes a record, then the spec’s columns come in order with its words for identity', () => {
    expect(CSV_COLUMNS).toEqual([
      'Incident ID',
      'Location',
      'Date created',
      'Date updated',
      'Category',
      'Sub-categories',
      'Identity',
      'Status',
    ]);
    expect(csvRecord(row, { kind: 'named', name: 'Jane, Doe' })).toEqual([
      '12',
      'Lyon, "Part-Dieu"',
      csvTimestamp(row.created),
      csvTimestamp(row.updated),
      'Fraud, Theft',
      'Bribery',
      'Jane, Doe',
      'CLOSED',
    ]);
    expect(csvRecord(row, { kind: 'anonymous' })[6]).toBe('Anonymous');
    expect(csvRecord(row, { kind: 'identified' })[6]).toBe('Identified');
    expect(csvRecord({ ...row, display_report_number: 0 }, { kind: 'anonymous' })[0]).toBe(row.uuid);
  });

  it('when timestamps are written, then they read year-month-day hours:minutes:seconds', () => {
    expect(csvTimestamp(row.created)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('when values hold commas, quotes and line breaks, then the CSV library quotes them so they read back the same', () => {
    const tricky = ['1', 'a\nb', 'x', 'y', 'say "hi"', '', 'Jane, Doe', 'NEW'];
    const text = toCsv([tricky]);
    expect(text.split('\r\n')[0]).toBe(CSV_COLUMNS.join(','));
    expect(Papa.parse<string[]>(text).data).toEqual([[...CSV_COLUMNS], tricky]);
  });

  it('when a name or label starts like a formula, then its cell starts with a quote so a spreadsheet shows it as text', () => {
    // What a discloser types as their name, or a staff member as a location or label (CSV injection, OWASP).
    const formulas = ['=HYPERLINK("https://evil.example","open")', '+1+2', '-2+3', '@SUM(A1)', '\tcmd', '\rcmd'];
    const records = formulas.map((formula) =>
      csvRecord(
        {
          ...row,
          location: { uuid: 'l', name: formula },
          management_categories: [{ uuid: 'a', name: formula, parent_uuid: null }],
        },
        { kind: 'named', name: formula },
      ),
    );
    const [, ...read] = Papa.parse<string[]>(toCsv(records)).data;
    read.forEach((cells, i) => {
      for (const column of [1, 4, 6]) expect(cells[column]).toBe(`'${formulas[i]}`);
    });
    // A sign inside a value starts no formula: such values stay as they were.
    expect(Papa.parse<string[]>(toCsv([['12', 'Lyon', 'x', 'y', 'a=b', '', 'Jane-Doe', 'NEW']])).data[1]).toEqual([
      '12',
      'Lyon',
      'x',
      'y',
      'a=b',
      '',
      'Jane-Doe',
      'NEW',
    ]);
  });
});

describe('extended CSV export', () => {
  it('when the extended export is asked, then the spec’s columns come first, unchanged, then the extended ones', () => {
    expect(csvHeader()).toEqual([...CSV_COLUMNS]);
    expect(csvHeader(english)).toEqual([
      ...CSV_COLUMNS,
      'Status (in words)',
      'Outcome',
      'Assignees',
      'Acknowledgement due',
      'Acknowledged',
      'Feedback due',
      'Feedback given',
      'Resolution due',
      'Overdue deadlines',
    ]);
    expect(csvHeader(french).slice(CSV_COLUMNS.length, CSV_COLUMNS.length + 3)).toEqual([
      'Statut (en toutes lettres)',
      'Issue',
      'Personnes assignées',
    ]);
    expect(EXTENDED_COLUMNS).toHaveLength(csvHeader(english).length - CSV_COLUMNS.length);
  });

  it('when a case becomes an extended record, then status and outcome are words, assignees names, deadlines timestamps', () => {
    expect(extendedCells(row, english)).toEqual([
      'Closed',
      'Substantiated',
      'Ada Lovelace, Hal Handler',
      csvTimestamp(row.clocks.acknowledgement.due_at),
      csvTimestamp(row.clocks.acknowledgement.done_at),
      csvTimestamp(row.clocks.feedback.due_at),
      '',
      csvTimestamp(row.clocks.resolution.due_at),
      'Feedback',
    ]);
    expect(extendedCells(row, french).slice(0, 2)).toEqual(['Clos', 'Fondé']);
    expect(extendedCells(row, french)[8]).toBe('Retour d’information');
    const open = { ...row, status: { name: 'NEW' as const }, outcome: null, assignees: [] };
    expect(extendedCells(open, english).slice(0, 3)).toEqual(['New', '', '']);
    for (const cell of extendedCells(row, english).slice(3, 8).filter(Boolean))
      expect(cell).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('when extended records are written, then the spec’s cells read back as before and every row has every column', () => {
    const record = [...csvRecord(row, { kind: 'anonymous' }), ...extendedCells(row, english)];
    const [header, cells] = Papa.parse<string[]>(toCsv([record], csvHeader(english))).data;
    expect(header).toEqual(csvHeader(english));
    expect(cells!.slice(0, CSV_COLUMNS.length)).toEqual(csvRecord(row, { kind: 'anonymous' }));
    expect(cells).toHaveLength(header!.length);
  });

  it('when an assignee’s name starts like a formula, then its cell starts with a quote as the others do', () => {
    const formula = '=HYPERLINK("https://evil.example","open")';
    const record = [
      ...csvRecord(row, { kind: 'anonymous' }),
      ...extendedCells({ ...row, assignees: [{ uuid: 'u1', full_name: formula }] }, english),
    ];
    const [, cells] = Papa.parse<string[]>(toCsv([record], csvHeader(english))).data;
    expect(cells![CSV_COLUMNS.length + 2]).toBe(`'${formula}`);
  });
});
