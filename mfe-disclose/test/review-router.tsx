import type { i18n } from 'i18next';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { ApiClient } from '@whistle/api-client';
import type { CompanyPublicView, IncidentMessage, IncidentStatus } from '@whistle/contracts';
import { encryptContent, type IncidentHandle } from '@whistle/crypto';
import { messageBinding } from '@whistle/ui/report';
import type { DiscloserSession } from '../src/review/discloser-session';
import { ReviewPage } from '../src/review/review.page';
import { keepSession } from '../src/session/status-outcome.store';
import { renderWithI18n } from './render';

/** The incident every review page test opens. */
export const INCIDENT = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';

/** What the review page reads of the company view: the case team's endorsements. */
export type ReviewCompany = Pick<CompanyPublicView, 'company_id' | 'key_endorsements'>;

/**
 * The review page of 'acme' under its company route, as disclose.routes mounts it, the company view already loaded;
 * the landing page before it in the history.
 */
export const reviewRouter = (company: ReviewCompany = {}) =>
  createMemoryRouter(
    [
      {
        id: 'company',
        path: '/disclose/:urlIdentifier',
        loader: () => company,
        children: [
          { index: true, element: <p>Landing</p> },
          { path: 'review', element: <ReviewPage /> },
        ],
      },
    ],
    {
      initialEntries: ['/disclose/acme', '/disclose/acme/review'],
      initialIndex: 1,
      hydrationData: { loaderData: { company } },
    },
  );

/** A message as its sender's browser encrypts it (bound to that side); `extra` may say otherwise afterwards. */
export async function incidentMessage(
  handle: IncidentHandle,
  uuid: string,
  text: string,
  extra: Partial<IncidentMessage> = {},
): Promise<IncidentMessage> {
  const sender = extra.sender ?? { name: 'Grace Hopper', source: 'STAFF' };
  return {
    uuid,
    incident_uuid: INCIDENT,
    content: await encryptContent(handle.publicKey, text, messageBinding(sender.source)),
    created: '2026-03-04T11:00:00.000Z',
    sender,
    ...extra,
  };
}

/** What the review page shows of the report itself: its fields, and those that did not open as themselves. */
export type OpenedReport = Pick<DiscloserSession, 'fields' | 'unverifiableFields'>;

/**
 * Opens the review page of a case in `status` (NEW) whose thread is `messages` (none), as opened with its secret
 * code: `pinned`, the team keys its report pinned (none: a report from before the pinning), `company`, the
 * endorsements served; `answer` answers what else the page asks of the API (nothing). Answers the API's mock.
 */
export function openReviewPage(options: {
  handle: IncidentHandle;
  language: i18n;
  status?: IncidentStatus;
  messages?: IncidentMessage[];
  incident?: Partial<DiscloserSession['incident']>;
  report?: OpenedReport;
  pinned?: DiscloserSession['pinnedTeamKeys'];
  company?: ReviewCompany;
  answer?: (method: string, path: string) => Promise<unknown>;
}) {
  const request = jest.fn(async (method: string, path: string) =>
    path === `/api/incident/${INCIDENT}/message` && method === 'GET'
      ? (options.messages ?? [])
      : (options.answer?.(method, path) ?? []),
  );
  const api = { baseUrl: '', headers: () => ({}), request } as unknown as ApiClient;
  keepSession({
    urlIdentifier: 'acme',
    incident: {
      uuid: INCIDENT,
      display_report_number: 7,
      status: { name: options.status ?? 'NEW' },
      created: '2026-03-04T10:00:00.000Z',
      location: { name: 'Paris' },
      categories: [],
      ...options.incident,
    } as unknown as DiscloserSession['incident'],
    ...(options.report ?? { fields: {}, unverifiableFields: new Set() }),
    handle: options.handle,
    pinnedTeamKeys: options.pinned ?? null,
    api,
  });
  const router = reviewRouter(options.company);
  renderWithI18n(<RouterProvider router={router} />, options.language);
  return { router, request };
}
