import { webcrypto } from 'node:crypto';
import { act, render, screen } from '@testing-library/react';
import { ApiError, type ApiClient } from '@whistle/api-client';
import type { IncidentMessage } from '@whistle/contracts';
import {
  createCompanyCredentials,
  createIncidentCredentials,
  encryptContent,
  type IncidentHandle,
} from '@whistle/crypto';
import type { DiscloserSession } from './discloser-session';
import { MESSAGE_POLL_MS, useDiscloserThread } from './use-discloser-thread';

const INCIDENT = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const THREAD = `/api/incident/${INCIDENT}/message`;
const NO_ENDORSEMENTS = {};

let handle: IncidentHandle;
beforeAll(async () => {
  // jsdom has no WebCrypto: Node's is the browser's API.
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
  const company = await createCompanyCredentials();
  handle = (await createIncidentCredentials(company.credential.public_key)).incident;
});
afterEach(() => jest.useRealTimers());

const message = async (uuid: string, text: string): Promise<IncidentMessage> => ({
  uuid,
  incident_uuid: INCIDENT,
  content: await encryptContent(handle.publicKey, text, { kind: 'message', from: 'staff' }),
  created: '2026-03-04T11:00:00.000Z',
  sender: { name: 'Grace Hopper', source: 'STAFF' },
});

/** The discloser's session, its API answering `thread()` for the messages and no files. */
function sessionAnswering(thread: () => Promise<IncidentMessage[]>) {
  const request = jest.fn(async (_method: string, path: string) => (path === THREAD ? thread() : []));
  const api = { baseUrl: '', headers: () => ({}), request } as unknown as ApiClient;
  const session: DiscloserSession = {
    urlIdentifier: 'acme',
    incident: {
      uuid: INCIDENT,
      display_report_number: 7,
      status: { name: 'NEW' },
      created: '2026-03-04T10:00:00.000Z',
      location: { name: 'Paris' },
      categories: [],
    } as unknown as DiscloserSession['incident'],
    fields: {},
    unverifiableFields: new Set(),
    handle,
    pinnedTeamKeys: null,
    api,
  };
  const threadRequests = () => request.mock.calls.filter(([, path]) => path === THREAD).length;
  return { session, threadRequests };
}

function Thread({ session }: { session: DiscloserSession }) {
  const thread = useDiscloserThread(session, false, NO_ENDORSEMENTS);
  return (
    <>
      <p>{thread.ended ? 'ended' : 'open'}</p>
      <p>{thread.loadFailed ? 'load failed' : 'loaded'}</p>
      <ul>
        {thread.messages?.map((shown) => (
          <li key={shown.uuid}>{shown.text === null ? 'decrypting' : shown.text}</li>
        ))}
      </ul>
    </>
  );
}

/**
 * Only the polling's interval runs on a fake clock: decryption (WebCrypto) and Testing Library's waiting
 * keep real time, so waiting for a decrypted text does not move the polling on.
 */
const pollingClock = () =>
  jest.useFakeTimers({
    doNotFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'queueMicrotask', 'nextTick', 'Date'],
  });
const after = (ms: number) => act(() => jest.advanceTimersByTimeAsync(ms));

describe('the discloser thread', () => {
  it('when the review page is open, then the thread is fetched at once and again every 30 seconds, decrypted here', async () => {
    const messages = [await message('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e001', 'We are looking into it')];
    const { session, threadRequests } = sessionAnswering(async () => [...messages]);
    pollingClock();
    render(<Thread session={session} />);
    expect(await screen.findByText('We are looking into it')).toBeInTheDocument();
    expect(threadRequests()).toBe(1);

    await after(MESSAGE_POLL_MS - 1);
    expect(threadRequests()).toBe(1);
    messages.push(await message('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e002', 'Any news?'));
    await after(1);
    expect(threadRequests()).toBe(2);
    expect(await screen.findByText('Any news?')).toBeInTheDocument();
    await after(MESSAGE_POLL_MS);
    expect(threadRequests()).toBe(3);
  });

  it('when a fetch fails, then the messages on screen stay and the page says it will try again', async () => {
    const messages = [await message('0b9a4cf2-5d5e-4a4e-9a3e-8c4f0ab0e001', 'We are looking into it')];
    let down = false;
    const { session } = sessionAnswering(async () => {
      if (down) throw new ApiError(THREAD, 502, 'Bad Gateway', {});
      return [...messages];
    });
    pollingClock();
    render(<Thread session={session} />);
    expect(await screen.findByText('We are looking into it')).toBeInTheDocument();
    down = true;
    await after(MESSAGE_POLL_MS);
    expect(screen.getByText('load failed')).toBeInTheDocument();
    expect(screen.getByText('We are looking into it')).toBeInTheDocument();
    down = false;
    await after(MESSAGE_POLL_MS);
    expect(screen.getByText('loaded')).toBeInTheDocument();
  });

  it('when the session has ended (401), then the page says so and the thread is not fetched any more', async () => {
    const { session, threadRequests } = sessionAnswering(async () => {
      throw new ApiError(THREAD, 401, 'Unauthorized', {});
    });
    pollingClock();
    render(<Thread session={session} />);
    expect(await screen.findByText('ended')).toBeInTheDocument();
    await after(3 * MESSAGE_POLL_MS);
    expect(threadRequests()).toBe(1);
  });
});
