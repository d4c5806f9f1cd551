import type { i18n } from 'i18next';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReplyTemplate } from '@whistle/contracts';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { CASE_UUID, openCasePage } from '../../test/case-page';
import { json, testCompany, useNodeWebCrypto, type TestCompany } from '../../test/staff-fixtures';
import { templatesByLanguage, withTemplate } from './reply-templates.component';

/* Issue 23 item 4: the company's reply templates, inserted into the reply being written. */

const realFetch = global.fetch;
const fetchMock = jest.fn<Promise<Response>, [string, RequestInit]>();
let company: TestCompany;
let english: i18n;
const TEMPLATES: ReplyTemplate[] = [
  {
    uuid: 'b0000000-0000-4000-8000-000000000001',
    name: 'Received',
    language: 'en',
    body: 'We have received your report.',
    updated: '2026-11-20T09:30:00.000Z',
  },
  {
    uuid: 'b0000000-0000-4000-8000-000000000002',
    name: 'More details',
    language: 'en',
    body: 'Could you tell us when it happened?',
    updated: '2026-11-20T09:30:00.000Z',
  },
];

beforeAll(async () => {
  useNodeWebCrypto();
  company = await testCompany();
  english = await initTestI18n<i18n>('en');
});
afterAll(() => {
  global.fetch = realFetch;
});

const withTemplates =
  (templates: ReplyTemplate[]) =>
  ({ method, url }: { method: string; url: string }) =>
    method === 'GET' && url === '/api/account/company/reply_template/' ? json(200, templates) : undefined;

it('when a template is chosen, then its text goes into the reply after what is written, and the reply still leaves encrypted', async () => {
  const { requests } = await openCasePage({
    company,
    language: english,
    fetchMock,
    answer: (request) =>
      withTemplates(TEMPLATES)(request) ??
      (request.method === 'POST' && request.url === '/api/incident/message/'
        ? json(201, { uuid: 'c0000000-0000-4000-8000-000000000001' })
        : undefined),
  });
  const box = screen.getByLabelText('Reply to the reporter');
  const picker = await screen.findByLabelText('Insert a reply template');
  expect(
    within(picker)
      .getAllByRole('option')
      .map((option) => option.textContent),
  ).toEqual(['Choose a template', 'Received', 'More details']);
  fireEvent.change(picker, { target: { value: TEMPLATES[0]!.uuid } });
  expect(box).toHaveValue('We have received your report.');
  fireEvent.change(picker, { target: { value: TEMPLATES[1]!.uuid } });
  expect(box).toHaveValue('We have received your report.\n\nCould you tell us when it happened?');
  // The picker is back on its prompt, ready for another.
  expect(picker).toHaveValue('');

  fireEvent.click(screen.getByRole('button', { name: 'Send' }));
  await waitFor(() => expect(requests.some((request) => request.method === 'POST')).toBe(true));
  const sent = requests.find((request) => request.method === 'POST')!;
  expect(sent.url).toBe('/api/incident/message/');
  expect(sent.body).toMatchObject({ incident_uuid: CASE_UUID, content: expect.stringMatching(/^v2\./) });
  expect(JSON.stringify(sent.body)).not.toContain('received your report');
});

it('when the company has no template, or they cannot be loaded, then the reply box has no picker', async () => {
  await openCasePage({ company, language: english, fetchMock, answer: withTemplates([]) });
  expect(screen.getByLabelText('Reply to the reporter')).toBeInTheDocument();
  await waitFor(() =>
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/account/company/reply_template/')).toBe(true),
  );
  expect(screen.queryByLabelText('Insert a reply template')).not.toBeInTheDocument();
  // The fake server's default is a 404.
  const { requests } = await openCasePage({ company, language: english, fetchMock });
  await waitFor(() => expect(requests.some(({ url }) => url === '/api/account/company/reply_template/')).toBe(true));
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(screen.queryByLabelText('Insert a reply template')).not.toBeInTheDocument();
});

it('when a template goes into a reply, then it follows the text on a new paragraph, or stands alone', () => {
  expect(withTemplate('', 'Thanks.')).toBe('Thanks.');
  expect(withTemplate('  \n', 'Thanks.')).toBe('Thanks.');
  expect(withTemplate('Hello,\n', 'Thanks.')).toBe('Hello,\n\nThanks.');
});

it('when templates are in several languages, then they come grouped by language, the company’s default first', async () => {
  const template = (uuid: string, language: ReplyTemplate['language'], name: string): ReplyTemplate => ({
    uuid: `b0000000-0000-4000-8000-00000000001${uuid}`,
    name,
    language,
    body: `${name}.`,
    updated: '2026-11-20T09:30:00.000Z',
  });
  // The server's order: by language code, then name.
  const templates = [template('1', 'de', 'Eingang'), ...TEMPLATES, template('2', 'fr', 'Accusé')];
  await openCasePage({ company, language: english, fetchMock, answer: withTemplates(templates) });
  const picker = await screen.findByLabelText('Insert a reply template');
  const groups = within(picker).getAllByRole('group');
  expect(groups.map((group) => group.getAttribute('label'))).toEqual(['English', 'Deutsch', 'Français']);
  expect(
    within(groups[0]!)
      .getAllByRole('option')
      .map((option) => option.textContent),
  ).toEqual(['Received', 'More details']);
  expect(within(groups[2]!).getByRole('option', { name: 'Accusé' })).toHaveAttribute('lang', 'fr');
  fireEvent.change(picker, { target: { value: templates[3]!.uuid } });
  expect(screen.getByLabelText('Reply to the reporter')).toHaveValue('Accusé.');
  // A company whose default is French: its templates first.
  expect(templatesByLanguage(templates, 'fr').map((group) => group.language)).toEqual(['fr', 'de', 'en']);
});

it("when the report says the reporter's page was in German, then the case says so and German templates come first", async () => {
  const templates = [
    { ...TEMPLATES[0]!, uuid: 'b0000000-0000-4000-8000-000000000021', language: 'de' as const, name: 'Eingang' },
    ...TEMPLATES,
  ];
  await openCasePage({
    company,
    language: english,
    fetchMock,
    fields: { language: 'de' },
    answer: withTemplates(templates),
  });
  expect(screen.getByText(/Language of the report: Deutsch/)).toBeInTheDocument();
  const picker = await screen.findByLabelText('Insert a reply template');
  const groups = within(picker).getAllByRole('group');
  expect(groups.map((group) => group.getAttribute('label'))).toEqual(['Deutsch', 'English']);
});

it('when the report does not say its language (older reports, staff-recorded ones), then the company default comes first', async () => {
  const templates = [
    { ...TEMPLATES[0]!, uuid: 'b0000000-0000-4000-8000-000000000021', language: 'de' as const, name: 'Eingang' },
    ...TEMPLATES,
  ];
  await openCasePage({ company, language: english, fetchMock, answer: withTemplates(templates) });
  const picker = await screen.findByLabelText('Insert a reply template');
  expect(
    within(picker)
      .getAllByRole('group')
      .map((group) => group.getAttribute('label')),
  ).toEqual(['English', 'Deutsch']);
  expect(screen.queryByText(/Language of the report/)).not.toBeInTheDocument();
});
