import Papa from 'papaparse';

/** A figure's data as its table view shows it: the same rows go to the CSV file. */
export interface FigureTable {
  /** The table's caption, and the base of the file name. */
  caption: string;
  columns: readonly string[];
  rows: readonly (readonly (string | number)[])[];
}

/** The CSV text of a figure: header and rows, quoted by the CSV library, CRLF line ends (as the case export). */
export const figureCsv = (table: FigureTable): string =>
  Papa.unparse(
    { fields: [...table.columns], data: table.rows.map((row) => row.map((cell) => String(cell))) },
    { newline: '\r\n' },
  );

/** `whistle-reporting-cases-per-month-2025-01-01-2025-12-31.csv` */
export function figureFileName(slug: string, period: { from: string; to: string }): string {
  return `whistle-reporting-${slug}-${period.from}-${period.to}.csv`;
}

/** Hands the CSV to the browser as a download. */
export function downloadCsv(fileName: string, csv: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
