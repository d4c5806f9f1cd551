import { webcrypto } from 'node:crypto';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { i18n } from 'i18next';
import { createApiClient } from '@whistle/api-client';
import type { CompanyPublicView, IncidentCreateRequest } from '@whistle/contracts';
import { createCompanyCredentials, solveProofOfWork, verifyProofOfWork } from '@whistle/crypto';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../test/render';
import { discloseRoutes } from '../disclose.routes';
import type { ProofOfWorkMessage, ProofOfWorkRequest } from './proof-of-work.worker';

/** The worker as the browser runs it, in this thread: what it is asked and when, and its real answer. */
const workers: Array<{ request?: ProofOfWorkRequest; startedAt: number }> = [];
jest.mock('./proof-of-work-worker', () => ({
  startProofOfWorkWorker: () => {
    const record: { request?: ProofOfWorkRequest; startedAt: number } = { startedAt: Date.now() };
    workers.push(record);
    const worker = {
      onmessage: null as ((event: MessageEvent<ProofOfWorkMessage>) => void) | null,
      onerror: null,
      terminate: jest.fn(),
      postMessage(request: ProofOfWorkRequest) {
        record.request = request;
        void solveProofOfWork(request.challenge, request.difficulty).then((nonce) =>
          worker.onmessage?.({ data: { type: 'solved', nonce } } as MessageEvent<ProofOfWorkMessage>),
        );
      },
    };
    return worker;
  },
}));

const fraud = { uuid: '0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0c001', name: 'Fraud', parent_uuid: null };
const paris = { uuid: '0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0a001', name: 'Paris office' };
let english: i18n;
let company: CompanyPublicView;
let challenges: string[];
let reports: IncidentCreateRequest[];
/** What the server says to each report, in turn (201 once they are used up). */
let answers: Array<{ status: number; body: unknown }>;
let reportSentAt: number;
const realFetch = global.fetch;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

async function fakeServer(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = new URL(String(input), 'http://localhost');
  const route = `${init.method ?? 'GET'} ${url.pathname}`;
  if (route === 'GET /api/account/company/acme') return json(200, company);
  if (route === 'GET /api/incident/challenge') {
    expect(url.searchParams.get('url_identifier')).toBe('acme');
    const challenge = `6.${Math.floor(Date.now() / 1000) + 3600}.${challenges.length}.mac`;
    challenges.push(challenge);
    return json(200, { challenge, difficulty: 6, expires: new Date(Date.now() + 3_600_000).toISOString() });
  }
  if (route === 'POST /api/incident/') {
    reportSentAt = Date.now();
    reports.push(JSON.parse(init.body as string));
    const answer = answers.shift() ?? {
      status: 201,
      body: { uuid: fraud.uuid, retrieval_id: 'abc123', display_report_number: 7 },
    };
    return json(answer.status, answer.body);
  }
  return json(404, { message: 'Not Found' });
}

beforeAll(async () => {
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
  english = await initTestI18n<i18n>('en');
  const { credential } = await createCompanyCredentials();
  company = {
    url_identifier: 'acme',
    name: 'Acme',
    customization: { title: null, description: null, logo_url: null, translations: {} },
    languages: { offered: ['en', 'fr'], default: 'en' },
    public_key: credential.public_key,
    key_version: 1,
    categories: [fraud],
    locations: [paris],
  };
});
beforeEach(() => {
  workers.length = 0;
  challenges = [];
  reports = [];
  answers = [];
  global.fetch = jest.fn(fakeServer) as unknown as typeof fetch;
});
afterAll(() => {
  global.fetch = realFetch;
});

async function fillAndSend() {
  const submit = await screen.findByRole('button', { name: 'Submit incident' });
  await waitFor(() => expect(submit).toBeEnabled());
  fireEvent.click(screen.getByRole('checkbox', { name: 'Fraud' }));
  fireEvent.change(document.querySelector('textarea[name="description"]')!, { target: { value: 'It happened' } });
  fireEvent.change(document.querySelector('select[name="location_uuid"]')!, { target: { value: paris.uuid } });
  fireEvent.click(submit);
  fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Submit incident' }));
  // The proof and the encryption take their time on a loaded machine.
  await screen.findByLabelText('Your secret code', undefined, { timeout: 20_000 });
}

const renderCreate = () =>
  renderWithI18n(
    <RouterProvider
      router={createMemoryRouter(discloseRoutes(createApiClient()), { initialEntries: ['/disclose/acme/create'] })}
    />,
    english,
  );

jest.setTimeout(60_000);

describe('the report form’s proof of work', () => {
  it('when the form opens, then the challenge is solved in a worker before anything is typed, and the report carries the solution', async () => {
    renderCreate();
    await waitFor(() => expect(workers[0]?.request).toEqual({ challenge: challenges[0], difficulty: 6 }), {
      timeout: 10_000,
    });
    expect(reports).toHaveLength(0);
    await fillAndSend();
    expect(workers).toHaveLength(1);
    expect(workers[0]!.startedAt).toBeLessThan(reportSentAt);
    expect(reports).toHaveLength(1);
    const solution = reports[0]!.proof_of_work!;
    expect(solution.challenge).toBe(challenges[0]);
    expect(await verifyProofOfWork(solution.challenge, solution.nonce, 6)).toBe(true);
  });

  it('when the server refuses the solution (spent, expired or outgrown), then a new challenge is solved and the same report sent again', async () => {
    answers = [
      { status: 400, body: { message: 'Bad Request', errors: { proof_of_work: ['Challenge already used'] } } },
    ];
    renderCreate();
    await fillAndSend();
    expect(reports).toHaveLength(2);
    expect(reports[1]!.proof_of_work!.challenge).toBe(challenges[1]);
    expect(await verifyProofOfWork(challenges[1]!, reports[1]!.proof_of_work!.nonce, 6)).toBe(true);
    // The same report: only its proof changed.
    const { proof_of_work: _first, ...firstReport } = reports[0]!;
    const { proof_of_work: _second, ...secondReport } = reports[1]!;
    expect(secondReport).toEqual(firstReport);
  });
});
