import type { i18n } from 'i18next';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { CASE_UUID, openCasePage } from '../../test/case-page';
import { json, testCompany, useNodeWebCrypto, type TestCompany } from '../../test/staff-fixtures';

/* Printing a case: on the record before the paper, and every page says who printed it and when. */

const realFetch = global.fetch;
const realPrint = window.print;
const fetchMock = jest.fn<Promise<Response>, [string, RequestInit]>();
let company: TestCompany;
let english: i18n;
const events: string[] = [];

beforeAll(async () => {
  useNodeWebCrypto();
  company = await testCompany();
  english = await initTestI18n<i18n>('en');
});
afterAll(() => {
  global.fetch = realFetch;
  window.print = realPrint;
});

async function openCase(printAnswer: number) {
  events.length = 0;
  // jsdom prints nothing; the browser fires beforeprint from inside print().
  window.print = jest.fn(() => {
    events.push('printed');
    window.dispatchEvent(new Event('beforeprint'));
  });
  await openCasePage({
    company,
    language: english,
    fetchMock,
    view: (view) => ({ ...view, display_report_number: 7 }),
    answer: ({ method, url }) => {
      if (method !== 'POST' || url !== `/api/incident/${CASE_UUID}/print`) return undefined;
      events.push('recorded');
      return printAnswer === 204 ? new Response(null, { status: 204 }) : json(printAnswer, { message: 'Unavailable' });
    },
  });
}

const printRecords = () =>
  fetchMock.mock.calls.filter(([url, init]) => init.method === 'POST' && url.endsWith('/print'));

describe('printing a case', () => {
  it('when Print is clicked, then the printing is recorded first, once, and the page carries who printed it and when', async () => {
    await openCase(204);
    expect(document.querySelector('.case-print-mark')).toHaveTextContent(/^$/);
    fireEvent.click(screen.getByRole('button', { name: 'Print' }));
    await waitFor(() => expect(events).toEqual(['recorded', 'printed']));
    expect(printRecords()).toHaveLength(1);
    expect(document.querySelector('.case-print-mark')!.textContent).toMatch(
      /^Confidential · Report #7 · printed by Ada Lovelace on \d{1,2} \w+ \d{4}, \d{2}:\d{2}$/,
    );
  });

  it('when the printing cannot be recorded, then nothing is printed and the page says why', async () => {
    await openCase(503);
    fireEvent.click(screen.getByRole('button', { name: 'Print' }));
    expect(
      await screen.findByText(
        "The printing could not be put on the case's record, so nothing was printed. Please try again.",
      ),
    ).toHaveAttribute('role', 'alert');
    expect(events).toEqual(['recorded']);
    expect(window.print).not.toHaveBeenCalled();
  });

  it("when the browser's own print menu is used, then that printing is recorded too and carries the mark", async () => {
    await openCase(204);
    act(() => void window.dispatchEvent(new Event('beforeprint')));
    await waitFor(() => expect(printRecords()).toHaveLength(1));
    expect(document.querySelector('.case-print-mark')!.textContent).toMatch(/printed by Ada Lovelace/);
  });
});
