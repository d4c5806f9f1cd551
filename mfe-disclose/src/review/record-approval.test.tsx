import { webcrypto } from 'node:crypto';
import { fireEvent, screen } from '@testing-library/react';
import type { i18n } from 'i18next';
import { createCompanyCredentials, createIncidentCredentials, type IncidentHandle } from '@whistle/crypto';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { INCIDENT, openReviewPage } from '../../test/review-router';
import { forgetOutcome } from '../session/status-outcome.store';
import type { DiscloserSession } from './discloser-session';

/*
 * A report the case team recorded from the reporter's telephone call or meeting (directive art. 18): the reporter
 * checks it on the review page and approves it with their session, or writes to the team to correct it.
 */

const APPROVED_AT = '2026-03-05T09:30:00.000Z';
let handle: IncidentHandle;
let english: i18n;

beforeAll(async () => {
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
  const company = await createCompanyCredentials();
  handle = (await createIncidentCredentials(company.credential.public_key)).incident;
  english = await initTestI18n<i18n>('en');
});
afterEach(forgetOutcome);

const openReview = (incident: Partial<DiscloserSession['incident']>, approval: () => Promise<unknown>) =>
  openReviewPage({
    handle,
    language: english,
    incident,
    report: { fields: { description: 'What I said on the phone' }, unverifiableFields: new Set() },
    answer: async (method, path) =>
      method === 'POST' && path === `/api/incident/${INCIDENT}/record-approval` ? approval() : [],
  }).request;

const approvals = (request: jest.Mock) =>
  request.mock.calls.filter(([method, path]) => method === 'POST' && String(path).endsWith('/record-approval'));

it('says a telephone record is the case team’s and approves it with the reporter’s session', async () => {
  const request = openReview(
    { report_channel: 'telephone', recorded_by_staff: true, record_approved_at: null },
    async () => ({ record_approved_at: APPROVED_AT }),
  );
  expect(
    await screen.findByText('This report was recorded by the case team from your telephone call.'),
  ).toBeInTheDocument();
  fireEvent.click(screen.getByRole('button', { name: 'Approve the record' }));
  expect(await screen.findByRole('status')).toHaveTextContent('You approved this record on March 5, 2026.');
  expect(approvals(request)).toHaveLength(1);
  expect(screen.queryByRole('button', { name: 'Approve the record' })).not.toBeInTheDocument();
});

it('names a meeting, and shows an approval made before without the button', async () => {
  const request = openReview(
    { report_channel: 'internal', recorded_by_staff: true, record_approved_at: APPROVED_AT },
    async () => ({ record_approved_at: APPROVED_AT }),
  );
  expect(await screen.findByText('This report was recorded by the case team from your meeting.')).toBeInTheDocument();
  expect(screen.getByText('You approved this record on March 5, 2026.')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Approve the record' })).not.toBeInTheDocument();
  expect(approvals(request)).toHaveLength(0);
});

it('says so when the approval could not be sent, and keeps the button', async () => {
  openReview({ report_channel: 'telephone', recorded_by_staff: true, record_approved_at: null }, async () => {
    throw new TypeError('Failed to fetch');
  });
  fireEvent.click(await screen.findByRole('button', { name: 'Approve the record' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Your approval could not be sent. Please try again.');
  expect(screen.getByRole('button', { name: 'Approve the record' })).toBeEnabled();
});

it('shows nothing of a record for a report the reporter sent themselves', async () => {
  openReview({ report_channel: 'online', recorded_by_staff: false, record_approved_at: null }, async () => ({}));
  expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Approve the record' })).not.toBeInTheDocument();
  expect(screen.queryByText(/recorded by the case team/)).not.toBeInTheDocument();
});
