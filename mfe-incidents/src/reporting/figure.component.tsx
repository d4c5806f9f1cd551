import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@whistle/ui';
import { downloadCsv, figureCsv, figureFileName, type FigureTable } from './reporting-csv';

/** A table cell: the text shown, and what the CSV file gets when it differs (an ISO month for a month name). */
export type Cell = string | number | { text: string; csv: string };

export interface FigureProps {
  title: string;
  /** File name part: `cases-per-month`. */
  slug: string;
  period: { from: string; to: string };
  columns: readonly string[];
  rows: readonly (readonly Cell[])[];
  /** The chart; its numbers are all in the table view. */
  children: ReactNode;
  /** How tall the chart area is (horizontal bars grow with their count). */
  height?: number;
}

const shown = (cell: Cell) => (typeof cell === 'object' ? cell.text : cell);
const inFile = (cell: Cell) => (typeof cell === 'object' ? cell.csv : cell);

/**
 * One figure of the reporting page: its chart, the same numbers as a real table (for screen readers, and to
 * read exact values), and a CSV download of them, its button named for the figure.
 */
export function Figure({ title, slug, period, columns, rows, children, height = 260 }: FigureProps) {
  const { t, i18n } = useTranslation('incidents');
  const headingId = useId();
  const count = new Intl.NumberFormat(i18n.language);
  const table: FigureTable = { caption: title, columns, rows: rows.map((row) => row.map(inFile)) };
  return (
    <section className="reporting-figure" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <div className="reporting-chart" style={{ height }}>
        {children}
      </div>
      <details className="reporting-table">
        <summary>{t('reporting.showTable')}</summary>
        <table className="case-table">
          <caption>{title}</caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={columns.length}>{t('reporting.noCase')}</td>
              </tr>
            )}
            {rows.map((row, index) => (
              <tr key={index}>
                {row.map((cell, column) => {
                  const value = shown(cell);
                  const text = typeof value === 'number' ? count.format(value) : value;
                  return column === 0 ? (
                    <th key={column} scope="row">
                      {text}
                    </th>
                  ) : (
                    <td key={column}>{text}</td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
      {/* Named for what it downloads, visibly: five figures, five different buttons (issue 23 item 7). */}
      <Button variant="secondary" small onClick={() => downloadCsv(figureFileName(slug, period), figureCsv(table))}>
        {t('reporting.downloadCsvOf', { title })}
      </Button>
    </section>
  );
}
