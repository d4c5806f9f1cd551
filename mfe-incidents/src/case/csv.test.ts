import Papa from 'papaparse';
import { CSV_COLUMNS, csvRecord, csvTimestamp, toCsv } from './csv';

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
};

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
