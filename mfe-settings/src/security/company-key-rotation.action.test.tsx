import type { i18n } from 'i18next';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { TeamKey } from '@whistle/contracts';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { fakeKeyring, HELD } from '../../test/fake-keyring';
import { answer, companyState, fakeSession, openSettings } from '../../test/security-pages';
import type { RewrapKeys, RewrapOutcome, RewrapProgress } from './company-key-rewrap';
import type { RewrapMessage, RewrapRequest } from './company-key-rewrap.worker';

/**
 * The re-wrapping itself (real WebCrypto, which jsdom lacks, in a Web Worker, which it lacks too) is
 * company-key-rewrap.test.ts's: here, what the page shows. The worker is replaced by one that calls `rewrap`.
 */
const rewrap = jest.fn<Promise<RewrapOutcome>, [RewrapKeys, (progress: RewrapProgress) => void]>();
const requests: RewrapRequest[] = [];
class MockRewrapWorker {
  onmessage: ((event: { data: RewrapMessage }) => void) | null = null;
  onerror: (() => void) | null = null;
  terminate = jest.fn();
  postMessage(request: RewrapRequest) {
    requests.push(request);
    if (request.type !== 'start') return;
    const post = (data: RewrapMessage) => this.onmessage?.({ data });
    void rewrap(request.keys, (progress) => post({ type: 'progress', ...progress })).then(
      (outcome) => post({ type: 'done', outcome }),
      (error: Error) => post({ type: 'failed', message: error.message }),
    );
  }
}
jest.mock('./company-key-rewrap-worker', () => ({ startRewrapWorker: () => new MockRewrapWorker() }));

const key = (letter: string) => `v1.${letter.repeat(87)}`;
const holder = (user_id: string, full_name: string, fingerprint: string, company_key: TeamKey['company_key']) => ({
  user_id,
  full_name,
  roles: ['ADMIN' as const],
  public_key: key(full_name[0]),
  signing_public_key: key(full_name[0].toLowerCase()),
  fingerprint,
  company_key,
  access_request: null,
});
const people: TeamKey[] = [
  holder('00000000-0000-4000-8000-000000000001', 'Ada Admin', 'ADA0 1111 2222 3333 4444', 'granted'),
  holder('00000000-0000-4000-8000-000000000002', 'Rita Reviewer', 'R1TA 9999 AAAA BBBB CCCC', 'granted'),
  holder('00000000-0000-4000-8000-000000000003', 'Hank Handler', 'HANK 5555 6666 7777 8888', 'missing'),
];
const ROTATING = { previousKeyVersion: 1, startedAt: '2026-12-02T09:00:00.000Z', previousHeld: true };
const material = { companyPrivateKey: {} as CryptoKey, previousCompanyPrivateKey: {} as CryptoKey };

let en: i18n;
let fetchMock: jest.SpyInstance;
beforeAll(async () => {
  en = await initTestI18n<i18n>('en');
});
beforeEach(() => {
  rewrap.mockReset();
  requests.length = 0;
  rewrap.mockImplementation(async () => ({ kind: 'completed' }));
  fetchMock = jest.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    if (String(input) === '/api/account/company/keys/people') return answer(200, { people });
    return answer(404, { message: 'Not found' });
  });
});
afterEach(() => fetchMock.mockRestore());

/**
 * The security page of an admin holding the key. The keyring answers `status`; as auth would, a rotation it
 * starts is under way until the re-wrapping completes.
 */
function open(status: Partial<typeof HELD>) {
  let current = { ...HELD, ...status };
  const keyring = fakeKeyring();
  keyring.companyKeyStatus.mockImplementation(async () => current);
  const start = keyring.startCompanyKeyRotation.getMockImplementation()!;
  keyring.startCompanyKeyRotation.mockImplementation(async (holders) => {
    current = { ...current, keyVersion: 2, rotation: ROTATING };
    return start(holders);
  });
  const done = rewrap.getMockImplementation();
  rewrap.mockImplementation(async (...args) => {
    const outcome = await done!(...args);
    if (outcome.kind === 'completed') current = { ...current, rotation: null };
    return outcome;
  });
  Object.assign(keyring, { workerMaterial: () => material });
  openSettings('/company/settings/security', en, fakeSession(companyState(), keyring));
  return keyring;
}

describe('security page, company key rotation', () => {
  it('when an admin rotates the company key, then the holders and their fingerprints are shown first, the new recovery kit must be stored, and the re-wrapping shows its progress until the old key is gone', async () => {
    let report: (progress: { done: number; total: number }) => void = () => undefined;
    let finish: () => void = () => undefined;
    rewrap.mockImplementation(async (_keys, onProgress) => {
      report = onProgress;
      await new Promise<void>((resolve) => (finish = resolve));
      return { kind: 'completed' };
    });
    const keyring = open({});

    fireEvent.click(await screen.findByRole('button', { name: 'Rotate company key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rotate the company key?' });
    expect(dialog).toHaveTextContent('keep this page open until it is done');
    expect(within(dialog).getByText('ADA0 1111 2222 3333 4444')).toBeInTheDocument();
    expect(within(dialog).getByText('R1TA 9999 AAAA BBBB CCCC')).toBeInTheDocument();
    expect(within(dialog).queryByText('HANK 5555 6666 7777 8888')).toBeNull();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Rotate company key' })));

    expect(keyring.startCompanyKeyRotation).toHaveBeenCalledTimes(1);
    expect(keyring.startCompanyKeyRotation.mock.calls[0][0].map((each) => each.fingerprint)).toEqual([
      'ADA0 1111 2222 3333 4444',
      'R1TA 9999 AAAA BBBB CCCC',
    ]);
    expect(await screen.findByText('NEWK')).toBeInTheDocument();
    expect(rewrap).not.toHaveBeenCalled();
    fireEvent.click(screen.getByLabelText('I have stored the recovery kit'));
    await act(async () =>
      fireEvent.click(screen.getByRole('button', { name: 'I stored the new kit: re-wrap the reports' })),
    );

    await waitFor(() => expect(rewrap).toHaveBeenCalledTimes(1));
    expect(requests[0]).toMatchObject({ type: 'start', token: 'staff-token' });
    expect(rewrap.mock.calls[0][0]).toEqual({
      keyVersion: 2,
      publicKey: HELD.publicKey,
      current: material.companyPrivateKey,
      previous: material.previousCompanyPrivateKey,
    });
    act(() => report({ done: 400, total: 10000 }));
    expect(screen.getByText('400 of 10000 reports re-wrapped')).toBeInTheDocument();
    // The session's token follows the worker (it is renewed while a long rotation runs).
    expect(requests.at(-1)).toEqual({ type: 'token', token: 'staff-token' });
    expect(screen.getByRole('progressbar', { name: 'Reports re-wrapped to the new company key' })).toHaveAttribute(
      'value',
      '400',
    );
    await act(async () => finish());
    expect(
      await screen.findByText(
        'The company key is rotated: every report is wrapped to the new key, and the old one is deleted.',
      ),
    ).toBeInTheDocument();
  });

  it('when the confirmation is cancelled, then no key is made', async () => {
    const keyring = open({});
    fireEvent.click(await screen.findByRole('button', { name: 'Rotate company key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rotate the company key?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(keyring.startCompanyKeyRotation).not.toHaveBeenCalled();
  });

  it('when a rotation was interrupted, then the page says so and resumes it; with cases out of reach, it says who must finish', async () => {
    rewrap.mockImplementation(async () => ({ kind: 'blocked', remaining: 3, unopened: 0 }));
    open({ keyVersion: 2, rotation: ROTATING });
    expect(await screen.findByText(/A rotation of the company key started on/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Rotate company key' })).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Resume the rotation' })));
    expect(rewrap).toHaveBeenCalledTimes(1);
    expect(
      await screen.findByText(/3 reports are left that you cannot open here .* another admin must resume the rotation/),
    ).toBeInTheDocument();
  });

  it('when this admin does not hold the old key, then they are told another admin must resume', async () => {
    open({ keyVersion: 2, rotation: { ...ROTATING, previousHeld: false } });
    expect(
      await screen.findByText(/Another admin who held the key before the rotation must resume it/),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Resume the rotation' })).toBeNull();
  });
});
