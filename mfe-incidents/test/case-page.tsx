import type { i18n } from 'i18next';
import { screen } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { StaffState } from '@whistle/api-client';
import type { IncidentStaffView } from '@whistle/contracts';
import type { PersonKeys } from '@whistle/crypto';
import { StaffSessionContext } from '@whistle/ui/staff';
import { incidentsRoutes } from '../src/incidents.routes';
import { renderWithI18n } from './render';
import { encryptedReport, json, staffSession, staffState, staffView, type TestCompany } from './staff-fixtures';

export const CASE_UUID = 'a0000000-0000-4000-8000-000000000001';

/** A request the case page made, as the fake server saw it. */
export interface SeenRequest {
  method: string;
  url: string;
  body: unknown;
}

/**
 * The case page of a case whose description is `description`, against a fake server: `answer` goes first (return
 * undefined to leave a request to the defaults), then the case itself (`view`, read at each request so `answer`
 * may change it), an empty thread, notes and files, and 404. Resolves once the description is decrypted on the page.
 */
export async function openCasePage(options: {
  company: TestCompany;
  language: i18n;
  fetchMock: jest.Mock<Promise<Response>, [string, RequestInit]>;
  description?: string;
  /** More encrypted report fields than the description (e.g. the reporter's `language`). */
  fields?: Record<string, string>;
  view?: (base: IncidentStaffView) => IncidentStaffView | Promise<IncidentStaffView>;
  answer?: (request: SeenRequest, view: { current: IncidentStaffView }) => Response | undefined;
  state?: StaffState;
  /** A handler's own keys in the keyring (their per-case grants open with them). */
  person?: PersonKeys;
  /** Whether the keyring holds the company key (admins); true unless said. */
  holdsCompanyKey?: boolean;
  /** What to wait for on the page instead of the decrypted description (a case that must not open). */
  shows?: string;
}): Promise<{ requests: SeenRequest[]; view: { current: IncidentStaffView } }> {
  const description = options.description ?? 'Invoices paid twice';
  const report = await encryptedReport(options.company, { description, ...options.fields });
  const companyKey = options.holdsCompanyKey === false ? undefined : options.company.privateKey;
  const base = staffView({ uuid: CASE_UUID, keys: report.keys, fields: report.fields });
  const view = { current: options.view ? await options.view(base) : base };
  const requests: SeenRequest[] = [];
  options.fetchMock.mockReset();
  options.fetchMock.mockImplementation(async (url, init) => {
    const request = {
      method: init.method ?? 'GET',
      url,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    requests.push(request);
    const answered = options.answer?.(request, view);
    if (answered) return answered;
    if (request.method === 'GET' && url === `/api/incident/${CASE_UUID}`) return json(200, view.current);
    if (url.endsWith('/message') || url.endsWith('/note') || url.endsWith('/file')) return json(200, []);
    return json(404, { message: 'Not Found' });
  });
  global.fetch = options.fetchMock as unknown as typeof fetch;
  const router = createMemoryRouter(incidentsRoutes, { initialEntries: [`/company/incidents/${CASE_UUID}`] });
  renderWithI18n(
    <StaffSessionContext.Provider value={staffSession(companyKey, options.state ?? staffState(), options.person)}>
      <RouterProvider router={router} />
    </StaffSessionContext.Provider>,
    options.language,
  );
  await screen.findByText(options.shows ?? description);
  return { requests, view };
}
