import type { i18n } from 'i18next';
import { act, fireEvent, screen } from '@testing-library/react';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../test/render';
import { staffSession, testCompany, useNodeWebCrypto, type TestCompany } from '../../test/staff-fixtures';
import { CSV_COLUMNS } from '../case/csv';
import type { ExportMessage, ExportRequest } from '../case/export-job';
import { CsvExport } from './csv-export.component';

/** The worker as the page sees it: what it was asked, and a way to answer as the worker would. */
const worker = {
  requests: [] as ExportRequest[],
  answer: (_message: ExportMessage) => undefined as void,
};
jest.mock('../case/export-worker', () => ({
  startExportWorker: () => {
    const fake = {
      onmessage: null as ((event: { data: ExportMessage }) => void) | null,
      onerror: null,
      postMessage: (request: ExportRequest) => worker.requests.push(request),
      terminate: () => undefined,
    };
    worker.answer = (message) => fake.onmessage?.({ data: message });
    return fake;
  },
}));

let company: TestCompany;
let french: i18n;
const saved: string[] = [];
beforeAll(async () => {
  useNodeWebCrypto();
  company = await testCompany();
  french = await initTestI18n<i18n>('fr');
  URL.createObjectURL = jest.fn(() => 'blob:export');
  URL.revokeObjectURL = jest.fn();
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
});
beforeEach(() => {
  worker.requests = [];
  saved.length = 0;
});

describe('CSV export', () => {
  it('when the extended export is ticked, then the worker gets its words in the viewer’s language and the file says extended', async () => {
    renderWithI18n(
      <CsvExport session={staffSession(company.privateKey)} query={{ page: '2', page_size: '50', status: ['NEW'] }} />,
      french,
    );
    const extended = screen.getByRole('checkbox', {
      name: 'Ajouter l’issue, les personnes assignées et les délais',
    });
    expect(extended).not.toBeChecked();
    expect(extended).toHaveAccessibleDescription('Après les colonnes standard, dans le même fichier.');
    fireEvent.click(extended);
    fireEvent.click(screen.getByRole('button', { name: 'Exporter en CSV' }));

    const [request] = worker.requests;
    expect(request!.query).toEqual({ status: ['NEW'] });
    expect(request!.extended).toMatchObject({
      columns: { outcome: 'Issue', assignees: 'Personnes assignées' },
      statuses: { CLOSED: 'Clos' },
      outcomes: { substantiated: 'Fondé' },
      clocks: { feedback: 'Retour d’information' },
    });
    act(() => worker.answer({ type: 'done', csv: `${CSV_COLUMNS.join(',')}\r\n`, count: 0 }));
    expect(saved).toEqual([expect.stringMatching(/^whistle-cases-extended-\d{4}-\d{2}-\d{2}\.csv$/)]);
  });

  it('when it is not ticked, then the export is the spec’s alone', () => {
    renderWithI18n(<CsvExport session={staffSession(company.privateKey)} query={{}} />, french);
    fireEvent.click(screen.getByRole('button', { name: 'Exporter en CSV' }));
    expect(worker.requests[0]!.extended).toBeUndefined();
    act(() => worker.answer({ type: 'done', csv: '', count: 0 }));
    expect(saved).toEqual([expect.stringMatching(/^whistle-cases-\d{4}-\d{2}-\d{2}\.csv$/)]);
  });
});
