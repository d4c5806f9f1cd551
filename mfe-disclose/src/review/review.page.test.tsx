import { webcrypto } from 'node:crypto';
import { screen, within } from '@testing-library/react';
import type { i18n } from 'i18next';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { ApiClient } from '@whistle/api-client';
import type { IncidentMessage, IncidentStatus } from '@whistle/contracts';
import {
  createCompanyCredentials,
  createIncidentCredentials,
  encryptField,
  type IncidentHandle,
} from '@whistle/crypto';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../test/render';
import { forgetOutcome, keepSession, type DiscloserSession } from './discloser-session';
import { ReviewPage } from './review.page';

/*
 * The reporter's page after the company closed the case: the final message sent with the closing (marked as
 * feedback, directive art. 9(1)(f)) is what tells them how it ended, so it shows with the status.
 */

const INCIDENT = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
let handle: IncidentHandle;
let english: i18n;
let french: i18n;

beforeAll(async () => {
  // jsdom has no WebCrypto: Node's is the browser's API.
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
  const company = await createCompanyCredentials();
  handle = (await createIncidentCredentials(company.credential.public_key)).incident;
  english = await initTestI18n<i18n>('en');
  french = await initTestI18n<i18n>('fr');
});
afterEach(forgetOutcome);

const message = async (uuid: string, text: string, extra: Partial<IncidentMessage> = {}): Promise<IncidentMessage> => ({
  uuid,
  incident_uuid: INCIDENT,
  content: await encryptField(handle.publicKey, text),
  created: '2026-03-04T11:00:00.000Z',
  sender: { name: 'Grace Hopper', source: 'STAFF' },
  ...extra,
});

/** Opens the review page of a case in `status` whose thread is `messages`. */
function openReview(status: IncidentStatus, messages: IncidentMessage[], language = english) {
  const request = jest.fn(async (_method: string, path: string) =>
    path === `/api/incident/${INCIDENT}/message` ? messages : [],
  );
  const api = { baseUrl: '', headers: () => ({}), request } as unknown as ApiClient;
  const session: DiscloserSession = {
    urlIdentifier: 'acme',
    incident: {
      uuid: INCIDENT,
      display_report_number: 7,
      status: { name: status },
      created: '2026-03-04T10:00:00.000Z',
      location: { name: 'Paris' },
      categories: [],
    } as unknown as DiscloserSession['incident'],
    fields: {},
    handle,
    api,
  };
  keepSession(session);
  const router = createMemoryRouter([{ path: '/disclose/:urlIdentifier/review', element: <ReviewPage /> }], {
    initialEntries: ['/disclose/acme/review'],
  });
  renderWithI18n(<RouterProvider router={router} />, language);
}

describe('the reporter’s page of a closed case', () => {
  it('when the case was closed with a final message, then the reporter reads it with the status, and it is marked as feedback in the thread', async () => {
    openReview('CLOSED', [
      await message('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e001', 'Any news?', {
        sender: { name: 'Discloser', source: 'DISCLOSER' },
      }),
      await message('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e002', 'We are looking into it', { feedback: true }),
      await message('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e003', 'Your concerns were justified; measures were taken.', {
        feedback: true,
        final: true,
        created: '2026-05-04T11:00:00.000Z',
      }),
    ]);
    const outcome = await screen.findByRole('region', { name: 'How your report ended' });
    expect(await within(outcome).findByText('Your concerns were justified; measures were taken.')).toBeInTheDocument();
    expect(within(outcome).queryByText('We are looking into it')).not.toBeInTheDocument();
    expect(screen.getByText('Closed')).toBeInTheDocument();
    const thread = screen.getByRole('region', { name: 'Messages' });
    expect(await within(thread).findByText('We are looking into it')).toBeInTheDocument();
    expect(within(thread).getAllByText('Feedback on your report')).toHaveLength(2);
  });

  it('when the case was closed without a final message (feedback given before), then no earlier reply poses as the ending', async () => {
    openReview('CLOSED', [
      await message('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e002', 'We are looking into it', { feedback: true }),
    ]);
    expect(await screen.findByText('We are looking into it')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'How your report ended' })).not.toBeInTheDocument();
  });

  it('when the case is open, then no final message shows, only the thread', async () => {
    openReview('INVESTIGATION', [
      await message('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e002', 'Interim feedback', { feedback: true }),
    ]);
    const thread = await screen.findByRole('region', { name: 'Messages' });
    expect(await within(thread).findByText('Interim feedback')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'How your report ended' })).not.toBeInTheDocument();
  });

  it('when a French-speaking reporter opens a closed case, then the final message is introduced in French', async () => {
    openReview(
      'CLOSED',
      [await message('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e003', 'Dossier clos, merci.', { feedback: true, final: true })],
      french,
    );
    const outcome = await screen.findByRole('region', { name: 'Issue de votre signalement' });
    expect(await within(outcome).findByText('Dossier clos, merci.')).toBeInTheDocument();
  });
});
