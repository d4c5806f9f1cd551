import type { i18n } from 'i18next';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { SavedView } from '@whistle/contracts';
import { StaffSessionContext } from '@whistle/ui/staff';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../test/render';
import { json, staffSession, testCompany, useNodeWebCrypto, type TestCompany } from '../../test/staff-fixtures';
import { incidentsRoutes } from '../incidents.routes';

/** Issue 23 item 2, saved views: the person's named filter sets on the list page. */
const realFetch = global.fetch;
const fetchMock = jest.fn<Promise<Response>, [string, RequestInit]>();
let company: TestCompany;

beforeAll(async () => {
  useNodeWebCrypto();
  company = await testCompany();
});
beforeEach(() => {
  fetchMock.mockReset();
  global.fetch = fetchMock as unknown as typeof fetch;
});
afterAll(() => {
  global.fetch = realFetch;
});

const HAL = '22222222-2222-4222-8222-222222222222';
const emptyPage = { count: 0, count_capped: false, page: 1, page_size: 20, results: [] };
const view = (uuid: string, name: string, filters: SavedView['filters']): SavedView => ({
  uuid,
  name,
  filters,
  created: '2026-11-20T09:30:00.000Z',
});
const OVERDUE = view('aaaaaaaa-0000-4000-8000-000000000001', 'Overdue of Hal', {
  assignee: [HAL],
  overdue: true,
  sort: 'next_due_at',
});
const NEW = view('aaaaaaaa-0000-4000-8000-000000000002', 'New cases', { status: ['NEW'], page_size: 50 });

/** A server keeping the person's views in memory: what the page saves, lists and deletes. */
function serve(views: SavedView[]) {
  const posted: unknown[] = [];
  fetchMock.mockImplementation(async (url, init) => {
    const method = init?.method ?? 'GET';
    if (url === '/api/incident/saved-view/' && method === 'GET') return json(200, views);
    if (url === '/api/incident/saved-view/' && method === 'POST') {
      const body = JSON.parse(String(init!.body)) as { name: string; filters: SavedView['filters'] };
      posted.push(body);
      const saved = view(`aaaaaaaa-0000-4000-8000-00000000010${views.length}`, body.name, body.filters);
      views.push(saved);
      return json(201, saved);
    }
    const deleted = /^\/api\/incident\/saved-view\/([^/]+)$/.exec(url);
    if (deleted && method === 'DELETE') {
      const index = views.findIndex((each) => each.uuid === deleted[1]);
      if (index < 0) return json(404, { message: 'Saved view not found' });
      views.splice(index, 1);
      return new Response(null, { status: 204 });
    }
    if (url.startsWith('/api/incident/?') || url === '/api/incident/') return json(200, emptyPage);
    throw new Error(`unexpected ${method} ${url}`);
  });
  return posted;
}

async function open(path: string, language = 'en') {
  const router = createMemoryRouter(incidentsRoutes, { initialEntries: [path] });
  renderWithI18n(
    <StaffSessionContext.Provider value={staffSession(company.privateKey)}>
      <RouterProvider router={router} />
    </StaffSessionContext.Provider>,
    await initTestI18n<i18n>(language),
  );
  return router;
}

const savedViews = () => screen.findByRole('region', { name: 'Saved views' });

describe('saved views', () => {
  it('when the person has views, then each is a link that opens the list with its filters', async () => {
    serve([NEW, OVERDUE]);
    const router = await open('/company/incidents');
    const region = await savedViews();
    const link = await within(region).findByRole('link', { name: 'Overdue of Hal' });
    expect(link).toHaveAttribute('href', `/company/incidents?assignee=${HAL}&overdue=true&sort=next_due_at`);
    expect(within(region).getByRole('link', { name: 'New cases' })).toHaveAttribute(
      'href',
      '/company/incidents?status=NEW&page_size=50',
    );
    fireEvent.click(link);
    await waitFor(() => expect(router.state.location.search).toBe(`?assignee=${HAL}&overdue=true&sort=next_due_at`));
    await waitFor(() =>
      expect(fetchMock.mock.calls.at(-1)![0]).toBe(`/api/incident/?assignee=${HAL}&overdue=true&sort=next_due_at`),
    );
    expect(within(region).getByRole('link', { name: 'Overdue of Hal' })).toHaveAttribute('aria-current', 'page');
    expect(within(region).getByRole('link', { name: 'New cases' })).not.toHaveAttribute('aria-current');
  });

  it('when the filters on screen are saved under a name, then the server gets them without the page, and the view is listed', async () => {
    const posted = serve([]);
    await open(`/company/incidents?status=NEW&assignee=${HAL}&report_number=12&page=3&page_size=10&sort=-created`);
    const region = await savedViews();
    expect(await within(region).findByText(/No saved view yet/)).toBeInTheDocument();
    fireEvent.change(within(region).getByLabelText('Name of the view'), { target: { value: ' Hal’s new ' } });
    fireEvent.click(within(region).getByRole('button', { name: 'Save the filters' }));
    expect(await within(region).findByRole('link', { name: 'Hal’s new' })).toHaveAttribute(
      'href',
      `/company/incidents?status=NEW&assignee=${HAL}&report_number=12&sort=-created&page_size=10`,
    );
    expect(posted).toEqual([
      {
        name: 'Hal’s new',
        filters: { status: ['NEW'], assignee: [HAL], report_number: 12, sort: '-created', page_size: 10 },
      },
    ]);
    expect(within(region).getByLabelText('Name of the view')).toHaveValue('');
  });

  it('when a name is missing, taken, too long, or the person is at the limit, then it says so and saves nothing', async () => {
    const posted = serve([NEW]);
    await open('/company/incidents?overdue=true');
    const region = await savedViews();
    await within(region).findByRole('link', { name: 'New cases' });
    const name = within(region).getByLabelText('Name of the view');
    const save = () => fireEvent.click(within(region).getByRole('button', { name: 'Save the filters' }));
    save();
    expect(await within(region).findByText('Enter a name for the view.')).toBeInTheDocument();
    fireEvent.change(name, { target: { value: 'New cases' } });
    save();
    expect(await within(region).findByText('You already have a view of this name.')).toBeInTheDocument();
    fireEvent.change(name, { target: { value: 'x'.repeat(81) } });
    save();
    expect(await within(region).findByText('A view’s name has at most 80 characters.')).toBeInTheDocument();
    expect(posted).toEqual([]);
  });

  it('when the person keeps 50 views, then another is refused before asking the server', async () => {
    const many = Array.from({ length: 50 }, (_, n) =>
      view(`aaaaaaaa-0000-4000-8000-0000000002${String(n).padStart(2, '0')}`, `View ${n}`, {}),
    );
    const posted = serve(many);
    await open('/company/incidents');
    const region = await savedViews();
    await within(region).findByRole('link', { name: 'View 49' });
    fireEvent.change(within(region).getByLabelText('Name of the view'), { target: { value: 'One more' } });
    fireEvent.click(within(region).getByRole('button', { name: 'Save the filters' }));
    expect(
      await within(region).findByText('You can keep at most 50 saved views. Delete one first.'),
    ).toBeInTheDocument();
    expect(posted).toEqual([]);
  });

  it('when a view is deleted, then it leaves the list, and the others stay', async () => {
    serve([NEW, OVERDUE]);
    await open('/company/incidents');
    const region = await savedViews();
    const deleteButton = await within(region).findByRole('button', { name: 'Delete the view New cases' });
    // Whatever deletes is a danger button (docs/ui.md).
    expect(deleteButton).toHaveClass('wh-button--danger');
    fireEvent.click(deleteButton);
    await waitFor(() => expect(within(region).queryByRole('link', { name: 'New cases' })).not.toBeInTheDocument());
    expect(within(region).getByRole('link', { name: 'Overdue of Hal' })).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith(
      `/api/incident/saved-view/${NEW.uuid}`,
      expect.objectContaining({ method: 'DELETE' }),
    );
  });

  it('when the server refuses a save, then the person is told it was not saved', async () => {
    serve([]);
    const fallback = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (url, init) =>
      init?.method === 'POST' ? json(400, { message: 'Invalid request body', errors: {} }) : fallback(url, init),
    );
    await open('/company/incidents?status=NEW');
    const region = await savedViews();
    await within(region).findByText(/No saved view yet/);
    fireEvent.change(within(region).getByLabelText('Name of the view'), { target: { value: 'Mine' } });
    fireEvent.click(within(region).getByRole('button', { name: 'Save the filters' }));
    expect(await within(region).findByText('The view could not be saved. Please try again.')).toBeInTheDocument();
  });

  it('when the list is in French, then so is the section', async () => {
    serve([NEW]);
    await open('/company/incidents', 'fr');
    const region = await screen.findByRole('region', { name: 'Vues enregistrées' });
    expect(await within(region).findByRole('button', { name: 'Supprimer la vue New cases' })).toBeInTheDocument();
    expect(within(region).getByLabelText('Nom de la vue')).toBeInTheDocument();
  });
});
