import type { i18n } from 'i18next';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { StaffSessionContext } from '@whistle/ui/staff';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../test/render';
import { json, staffSession, testCompany, useNodeWebCrypto, type TestCompany } from '../../test/staff-fixtures';
import { MATCHES_SENT, type SearchMessage, type SearchRequest } from '../case/search-job';
import { incidentsRoutes } from '../incidents.routes';

/** The search worker as the page sees it: what it was asked, whether it was stopped, and a way to answer. */
const worker = {
  requests: [] as SearchRequest[],
  terminated: 0,
  answer: (_message: SearchMessage) => undefined as void,
};
jest.mock('../case/search-worker', () => ({
  startSearchWorker: () => {
    const fake = {
      onmessage: null as ((event: { data: SearchMessage }) => void) | null,
      onerror: null,
      postMessage: (request: SearchRequest) => worker.requests.push(request),
      terminate: () => void (worker.terminated += 1),
    };
    worker.answer = (message) => fake.onmessage?.({ data: message });
    return fake;
  },
}));

const realFetch = global.fetch;
let company: TestCompany;
let english: i18n;
let french: i18n;
beforeAll(async () => {
  useNodeWebCrypto();
  company = await testCompany();
  english = await initTestI18n<i18n>('en');
  french = await initTestI18n<i18n>('fr');
  global.fetch = (async () =>
    json(200, { count: 0, count_capped: false, page: 1, page_size: 20, results: [] })) as unknown as typeof fetch;
});
beforeEach(() => {
  worker.requests = [];
  worker.terminated = 0;
});
afterAll(() => {
  global.fetch = realFetch;
});

function open(language = english, { locked = false } = {}) {
  const router = createMemoryRouter([...incidentsRoutes, { path: '/elsewhere', element: <p>Elsewhere</p> }], {
    initialEntries: ['/company/incidents'],
  });
  renderWithI18n(
    <StaffSessionContext.Provider value={staffSession(locked ? undefined : company.privateKey)}>
      <RouterProvider router={router} />
    </StaffSessionContext.Provider>,
    language,
  );
  return router;
}

const hit = (n: number) => ({
  uuid: `6f1c3f44-3b4e-4c55-8f5c-${String(n).padStart(12, '0')}`,
  display_report_number: n,
  snippet: `…copper left the quarry ${n}…`,
});

async function search(words: string, label = 'Words in the reports', button = 'Search in reports') {
  fireEvent.change(await screen.findByLabelText(label), { target: { value: words } });
  fireEvent.click(screen.getByRole('button', { name: button }));
}

describe('searching words in the reports', () => {
  it('when words are searched, then the worker gets them with the key, and the page shows progress and each match as it comes, as a link', async () => {
    open();
    await search('  Quarry copper ');
    const [request] = worker.requests;
    expect(request).toMatchObject({
      query: '  Quarry copper ',
      token: 'staff-token',
      companyPrivateKey: company.privateKey,
    });

    act(() => worker.answer({ type: 'progress', done: 1200, total: 10000, found: 1, hits: [hit(7)] }));
    expect(screen.getByRole('status')).toHaveTextContent('Searching 1,200 of 10,000 cases…');
    const matches = screen.getByRole('list', { name: 'Matching cases' });
    expect(within(matches).getByRole('link', { name: '#7' })).toHaveAttribute(
      'href',
      `/company/incidents/${hit(7).uuid}`,
    );
    expect(matches).toHaveTextContent('…copper left the quarry 7…');

    act(() => worker.answer({ type: 'progress', done: 5000, total: 10000, found: 2, hits: [hit(9)] }));
    act(() => worker.answer({ type: 'done', done: 10000, total: 10000, found: 2, hits: [], unreadable: 1 }));
    expect(screen.getByRole('status')).toHaveTextContent('2 cases of 10,000 hold every word.');
    expect(
      within(matches)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['#7', '#9']);
    expect(screen.getByText('1 case could not be decrypted and was not searched.')).toBeInTheDocument();
    expect(worker.terminated).toBe(1);
    // Nothing decrypted is kept anywhere but the page's state.
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(0);
  });

  it('when the search is cancelled, then the worker stops, the page says how far it got and ignores what comes after', async () => {
    open(french);
    await search('cuivre', 'Mots dans les signalements', 'Rechercher dans les signalements');
    act(() => worker.answer({ type: 'progress', done: 50, total: 120, found: 1, hits: [hit(3)] }));
    fireEvent.click(screen.getByRole('button', { name: 'Annuler la recherche' }));
    expect(worker.terminated).toBe(1);
    expect(screen.getByRole('status')).toHaveTextContent('Recherche annulée après 50 dossiers sur 120.');
    act(() => worker.answer({ type: 'progress', done: 100, total: 120, found: 2, hits: [hit(4)] }));
    const matches = screen.getByRole('list', { name: 'Dossiers trouvés' });
    expect(
      within(matches)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['n° 3']);
    expect(screen.queryByRole('button', { name: 'Annuler la recherche' })).not.toBeInTheDocument();
  });

  it('when the person leaves the page, then the worker and its results go', async () => {
    const router = open();
    await search('quarry');
    act(() => worker.answer({ type: 'progress', done: 50, total: 120, found: 1, hits: [hit(3)] }));
    await act(() => router.navigate('/elsewhere'));
    expect(await screen.findByText('Elsewhere')).toBeInTheDocument();
    expect(worker.terminated).toBe(1);
    await act(() => router.navigate('/company/incidents'));
    expect(await screen.findByLabelText('Words in the reports')).toHaveValue('');
    expect(screen.queryByRole('list', { name: 'Matching cases' })).not.toBeInTheDocument();
  });

  it('when a word matches more cases than shown, then the first ones are listed and the page says to narrow', async () => {
    open();
    await search('the');
    // The worker sends the first matches and counts the others.
    const first = Array.from({ length: MATCHES_SENT }, (_, index) => hit(index + 1));
    act(() => worker.answer({ type: 'done', done: 500, total: 500, found: 105, hits: first, unreadable: 0 }));
    expect(within(screen.getByRole('list', { name: 'Matching cases' })).getAllByRole('link')).toHaveLength(
      MATCHES_SENT,
    );
    expect(
      screen.getByText('Showing the first 100 of 105 matching cases: add words to narrow the search.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('105 cases of 500 hold every word.');
  });

  it('when the box is empty or the keys are locked, then no worker starts and the page says why', async () => {
    open(english, { locked: true });
    await search('   ');
    expect(await screen.findByText('Enter one or more words.')).toBeInTheDocument();
    await search('quarry');
    expect(await screen.findByRole('alert')).toHaveTextContent(english.t('incidents:identity.lockedHelp'));
    expect(worker.requests).toEqual([]);
  });

  it('when the worker fails, then the page says so', async () => {
    open();
    await search('quarry');
    act(() => worker.answer({ type: 'failed', status: 500 }));
    expect(screen.getByRole('alert')).toHaveTextContent('The search failed. Please try again.');
  });
});
