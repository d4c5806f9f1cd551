import type { i18n } from 'i18next';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ApiError } from '@whistle/api-client';
import type { TeamKey } from '@whistle/contracts';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { fakeKeyring } from '../../test/fake-keyring';
import { answer, companyState, fakeSession, openSettings } from '../../test/security-pages';

const REQUEST_ID = '00000000-0000-4000-8000-0000000000a1';
const key = (letter: string) => `v1.${letter.repeat(87)}`;
const person = (user_id: string, full_name: string, rest: Partial<TeamKey>): TeamKey => ({
  user_id,
  full_name,
  roles: ['HANDLER'],
  public_key: key(full_name[0]),
  signing_public_key: key(full_name[0].toLowerCase()),
  fingerprint: null,
  company_key: 'missing',
  access_request: null,
  ...rest,
});

/** Ada holds the key; Hank asks for it; Rita has keys and no access; Nina has not made her keys yet. */
function team(): TeamKey[] {
  return [
    person('00000000-0000-4000-8000-000000000001', 'Ada Admin', {
      roles: ['ADMIN'],
      fingerprint: 'ADA0 1111 2222 3333 4444',
      company_key: 'granted',
    }),
    person('00000000-0000-4000-8000-000000000003', 'Hank Handler', {
      fingerprint: 'HANK 5555 6666 7777 8888',
      access_request: {
        id: REQUEST_ID,
        fingerprint: 'HANK 5555 6666 7777 8888',
        created: '2026-11-26T09:00:00.000Z',
        expires_at: '2026-12-03T09:00:00.000Z',
      },
    }),
    person('00000000-0000-4000-8000-000000000002', 'Rita Reviewer', { fingerprint: 'R1TA 9999 AAAA BBBB CCCC' }),
    person('00000000-0000-4000-8000-000000000004', 'Nina New', { public_key: null, signing_public_key: null }),
  ];
}

let en: i18n;
let fr: i18n;
let people: TeamKey[];
let fetchMock: jest.SpyInstance;
beforeAll(async () => {
  [en, fr] = await Promise.all([initTestI18n<i18n>('en'), initTestI18n<i18n>('fr')]);
});
beforeEach(() => {
  people = team();
  fetchMock = jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const method = init?.method ?? 'GET';
    if (String(input) === '/api/account/company/keys/people' && method === 'GET') return answer(200, { people });
    if (String(input) === `/api/account/company/keys/requests/${REQUEST_ID}` && method === 'DELETE') {
      people = people.map((each) => ({ ...each, access_request: null }));
      return answer(204);
    }
    return answer(404, { message: 'Not found' });
  });
});
afterEach(() => fetchMock.mockRestore());

function open(keyring = fakeKeyring(), instance = en) {
  openSettings('/company/settings/security', instance, fakeSession(companyState(), keyring));
  return keyring;
}

/** Opens the comparison step and confirms the fingerprint was read out the same. */
async function compareAndGrant(name: string, fingerprint: string) {
  const dialog = await screen.findByRole('dialog', { name: `Compare the fingerprint of ${name}` });
  expect(within(dialog).getByText(fingerprint)).toBeInTheDocument();
  const grant = within(dialog).getByRole('button', { name: 'Grant access' });
  expect(grant).toBeDisabled();
  fireEvent.click(within(dialog).getByLabelText(`${name} read me exactly this fingerprint`));
  // The keyring's answer and the list's reload settle inside act.
  await act(async () => fireEvent.click(grant));
}

describe('security page, report access', () => {
  it('when an admin approves a request after comparing, then the key is wrapped to exactly the keys and fingerprint shown, for that request', async () => {
    const keyring = open();
    const request = await screen.findByRole('article', { name: 'Hank Handler' });
    expect(within(request).getByText('HANK 5555 6666 7777 8888')).toBeInTheDocument();
    expect(within(request).getByText(/ask them to read you the fingerprint shown on their screen/)).toBeInTheDocument();
    fireEvent.click(within(request).getByRole('button', { name: 'Approve Hank Handler' }));
    await compareAndGrant('Hank Handler', 'HANK 5555 6666 7777 8888');
    expect(await screen.findByText('Hank Handler now has access to reports.')).toBeInTheDocument();
    expect(keyring.approveCompanyKey).toHaveBeenCalledTimes(1);
    expect(keyring.approveCompanyKey.mock.calls[0][0]).toStrictEqual({
      userId: '00000000-0000-4000-8000-000000000003',
      publicKey: key('H'),
      signingPublicKey: key('h'),
      fingerprint: 'HANK 5555 6666 7777 8888',
      requestId: REQUEST_ID,
    });
  });

  it('when the comparison is cancelled, then nothing is granted', async () => {
    const keyring = open();
    fireEvent.click(await screen.findByRole('button', { name: 'Approve Hank Handler' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(keyring.approveCompanyKey).not.toHaveBeenCalled();
  });

  it('when an admin grants someone without access who did not ask, then it goes through the same comparison, without a request', async () => {
    const keyring = open();
    const rows = await screen.findAllByRole('row');
    const nina = rows.find((row) => row.textContent?.includes('Nina New'))!;
    expect(within(nina).getByText('No keys yet')).toBeInTheDocument();
    expect(within(nina).queryByRole('button')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Grant access to Ada Admin' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Grant access to Rita Reviewer' }));
    await compareAndGrant('Rita Reviewer', 'R1TA 9999 AAAA BBBB CCCC');
    await screen.findByText('Rita Reviewer now has access to reports.');
    expect(keyring.approveCompanyKey.mock.calls[0][0]).toStrictEqual({
      userId: '00000000-0000-4000-8000-000000000002',
      publicKey: key('R'),
      signingPublicKey: key('r'),
      fingerprint: 'R1TA 9999 AAAA BBBB CCCC',
    });
  });

  it("when the person's key changed since the comparison, then the server's 409 sentence shows and nothing says granted", async () => {
    const keyring = open();
    const changed = "This person's key changed since you compared it: compare the new fingerprint";
    keyring.approveCompanyKey.mockRejectedValueOnce(
      new ApiError('/api/account/company/keys/grants', 409, 'Conflict', { message: changed }),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Approve Hank Handler' }));
    await compareAndGrant('Hank Handler', 'HANK 5555 6666 7777 8888');
    expect(await screen.findByRole('alert')).toHaveTextContent(changed);
    expect(screen.queryByText(/now has access/)).toBeNull();
  });

  it('when an admin declines a request, then it is deleted and the request leaves the list', async () => {
    const keyring = open();
    fireEvent.click(await screen.findByRole('button', { name: 'Decline Hank Handler' }));
    expect(await screen.findByText('The request of Hank Handler was declined.')).toBeInTheDocument();
    const deletion = fetchMock.mock.calls.find(([, init]) => init?.method === 'DELETE');
    expect(deletion?.[0]).toBe(`/api/account/company/keys/requests/${REQUEST_ID}`);
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Hank Handler' })).toBeNull());
    expect(screen.getByText('Nobody is waiting for access.')).toBeInTheDocument();
    expect(keyring.approveCompanyKey).not.toHaveBeenCalled();
  });

  it('when an admin asks for a new recovery kit, then they are warned the old kit stops working, and the new kit shows until they stored it', async () => {
    const keyring = open();
    fireEvent.click(await screen.findByRole('button', { name: 'New recovery kit' }));
    let dialog = await screen.findByRole('dialog', { name: 'Make a new recovery kit?' });
    expect(dialog).toHaveTextContent('The current recovery kit stops working as soon as the new one is made');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(keyring.rotateRecoveryKit).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'New recovery kit' }));
    dialog = await screen.findByRole('dialog', { name: 'Make a new recovery kit?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Make a new recovery kit' }));
    expect(await screen.findByRole('heading', { name: 'Your recovery kit' })).toBeInTheDocument();
    expect(keyring.rotateRecoveryKit).toHaveBeenCalledTimes(1);
    expect(screen.getByText('ABCD')).toBeInTheDocument();
    const going = screen.getByRole('button', { name: 'Continue' });
    expect(going).toBeDisabled();
    fireEvent.click(screen.getByLabelText('I have stored the recovery kit'));
    fireEvent.click(going);
    expect(
      await screen.findByText('The new recovery kit is in place; the old one no longer works.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Your recovery kit' })).toBeNull();
  });

  it('when the admin does not hold the company key in this browser, then the section points to the banner and lists nobody', async () => {
    open(fakeKeyring({ state: 'missing' }));
    expect(await screen.findByText(/restore your access with the banner at the top of the page/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New recovery kit' })).toBeNull();
    expect(fetchMock).not.toHaveBeenCalledWith('/api/account/company/keys/people', expect.anything());
  });

  it('when the state of the company key cannot be read, then the section says so instead of pointing to the banner', async () => {
    const keyring = fakeKeyring();
    keyring.companyKeyStatus.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    open(keyring);
    expect(await screen.findByRole('alert')).toHaveTextContent('The state of the company key could not be read.');
    expect(screen.queryByText(/banner at the top of the page/)).toBeNull();
  });

  it('when the page is in French, then the request, its advice and the comparison step are in French', async () => {
    open(fakeKeyring(), fr);
    expect(await screen.findByRole('heading', { name: 'Accès aux signalements' })).toBeInTheDocument();
    const request = await screen.findByRole('article', { name: 'Hank Handler' });
    expect(request).toHaveTextContent('demandez-lui de vous lire l’empreinte affichée sur son écran');
    fireEvent.click(within(request).getByRole('button', { name: 'Approuver Hank Handler' }));
    const dialog = await screen.findByRole('dialog', { name: 'Comparer l’empreinte de Hank Handler' });
    expect(within(dialog).getByRole('button', { name: 'Donner accès' })).toBeDisabled();
  });
});

describe('security page, confirming keys for the reporters’ pages (issue #25, item 4)', () => {
  const ADA_KEY = '00000000-0000-4000-8000-0000000000e1';
  const HANK_KEY = '00000000-0000-4000-8000-0000000000e3';
  const RITA_KEY = '00000000-0000-4000-8000-0000000000e2';
  /** Ada, signed in, finds her own row by her signing key; everyone with keys has a key id; Hank is confirmed. */
  function signedInAsAda() {
    people = people.map((each) => {
      const keyId = { 'Ada Admin': ADA_KEY, 'Hank Handler': HANK_KEY, 'Rita Reviewer': RITA_KEY }[each.full_name];
      return { ...each, key_id: keyId ?? null, endorsed: each.full_name === 'Hank Handler' };
    });
    const keyring = fakeKeyring();
    keyring.person = () => ({
      publicKey: key('A'),
      signingPublicKey: key('a'),
      fingerprint: 'ADA0 1111 2222 3333 4444',
    });
    return open(keyring);
  }
  const rowOf = async (name: string) =>
    (await screen.findAllByRole('row')).find((row) => row.textContent?.includes(name))!;

  it('when an admin confirms the key of someone without the company key, then it goes through the comparison and the keyring signs exactly that key', async () => {
    const keyring = signedInAsAda();
    expect(within(await rowOf('Hank Handler')).getByText('Confirmed')).toBeInTheDocument();
    expect(within(await rowOf('Rita Reviewer')).getByText('Not confirmed')).toBeInTheDocument();
    // Nobody confirms their own key, nor one already confirmed.
    expect(screen.queryByRole('button', { name: 'Confirm the key of Ada Admin' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Confirm the key of Hank Handler' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm the key of Rita Reviewer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Compare the fingerprint of Rita Reviewer' });
    const confirm = within(dialog).getByRole('button', { name: 'Confirm key' });
    expect(confirm).toBeDisabled();
    fireEvent.click(within(dialog).getByLabelText('Rita Reviewer read me exactly this fingerprint'));
    await act(async () => fireEvent.click(confirm));
    expect(await screen.findByText(/The key of Rita Reviewer is confirmed/)).toBeInTheDocument();
    expect(keyring.endorseTeamKey.mock.calls).toStrictEqual([
      [
        {
          companyId: '00000000-0000-4000-8000-0000000000c1',
          endorserKeyId: ADA_KEY,
          member: {
            userId: '00000000-0000-4000-8000-000000000002',
            publicKey: key('R'),
            signingPublicKey: key('r'),
            fingerprint: 'R1TA 9999 AAAA BBBB CCCC',
            keyId: RITA_KEY,
            role: 'HANDLER',
          },
        },
      ],
    ]);
    expect(keyring.approveCompanyKey).not.toHaveBeenCalled();
  });

  it('when an admin grants access to someone not confirmed yet, then the one comparison also confirms their key', async () => {
    const keyring = signedInAsAda();
    fireEvent.click(await screen.findByRole('button', { name: 'Grant access to Rita Reviewer' }));
    await compareAndGrant('Rita Reviewer', 'R1TA 9999 AAAA BBBB CCCC');
    await screen.findByText('Rita Reviewer now has access to reports.');
    expect(keyring.approveCompanyKey).toHaveBeenCalledTimes(1);
    expect(keyring.endorseTeamKey).toHaveBeenCalledTimes(1);
    expect(keyring.endorseTeamKey.mock.calls[0][0].member.keyId).toBe(RITA_KEY);
  });
});
