import type { i18n } from 'i18next';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { OwnKeysResponse, UnlockMethod } from '@whistle/contracts';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { fakeKeyring } from '../../test/fake-keyring';
import { answer, companyState, fakeSession, openSettings } from '../../test/security-pages';

const PASSKEY_ID = '00000000-0000-4000-8000-0000000000b2';
const method = (id: string, kind: UnlockMethod['method'], label: string | null = null): UnlockMethod => ({
  id,
  method: kind,
  sealed_private_keys: 'v2.sealed',
  credential_id: kind === 'passkey' ? 'Y3JlZGVudGlhbC1pZA' : null,
  prf_salt: null,
  kdf: null,
  kdf_salt: null,
  label,
  created: '2026-11-20T09:00:00.000Z',
});
const ownKeys = (unlock: UnlockMethod[]): OwnKeysResponse => ({
  password: { kdf: 'argon2id-v2', salt: 'cGFjdC1rZGYtc2FsdC0xMg' },
  person: {
    public_key: `v1.${'P'.repeat(87)}`,
    signing_public_key: `v1.${'S'.repeat(87)}`,
    fingerprint: 'ADAF 1NGE RPR1 NT00 0001',
    unlock,
  },
});

let en: i18n;
let fr: i18n;
/** What GET /api/account/profile/keys answers; DELETE answers what the server would say. */
let own: OwnKeysResponse;
let deletion: (id: string) => Response;
let fetchMock: jest.SpyInstance;
beforeAll(async () => {
  [en, fr] = await Promise.all([initTestI18n<i18n>('en'), initTestI18n<i18n>('fr')]);
});
beforeEach(() => {
  own = ownKeys([
    method('00000000-0000-4000-8000-0000000000b1', 'password'),
    method(PASSKEY_ID, 'passkey', 'Work laptop'),
  ]);
  deletion = (id) => {
    own = ownKeys(own.person!.unlock.filter((each) => each.id !== id));
    return answer(200, own);
  };
  fetchMock = jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    if (url === '/api/account/profile/notifications') return answer(200, { language: 'en', notifications: {} });
    if (url === '/api/account/profile/keys' && method === 'GET') return answer(200, own);
    if (url.startsWith('/api/account/profile/keys/unlock/') && method === 'DELETE')
      return deletion(url.split('/').pop()!);
    return answer(404, { message: 'Not found' });
  });
});
afterEach(() => fetchMock.mockRestore());

function open(keyring = fakeKeyring(), instance = en) {
  openSettings('/company/settings/account', instance, fakeSession(companyState(), keyring));
  return keyring;
}
const keysLoads = () =>
  fetchMock.mock.calls.filter(
    ([url, init]) => url === '/api/account/profile/keys' && (init?.method ?? 'GET') === 'GET',
  );

describe('account page, unlock methods', () => {
  it('when the page opens, then the methods are listed, and the password has no Remove', async () => {
    open();
    const section = (await screen.findByRole('heading', { name: 'Unlock methods' })).closest('section')!;
    const list = await within(section).findByRole('list');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.querySelector('strong')?.textContent),
    ).toEqual(['Your password', 'Passkey “Work laptop”']);
    expect(
      within(list)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual(['Remove Passkey “Work laptop”']);
  });

  it('when a passkey is added with a label, then the keyring registers it under that label and the list reloads', async () => {
    const keyring = open();
    fireEvent.click(await screen.findByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    expect(keyring.addPasskey).not.toHaveBeenCalled();

    keyring.addPasskey.mockImplementationOnce(async () => {
      own = ownKeys([...own.person!.unlock, method('00000000-0000-4000-8000-0000000000b3', 'passkey', 'Home')]);
    });
    fireEvent.change(screen.getByLabelText('Name of the passkey'), { target: { value: ' Home ' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add a passkey' })));
    expect(keyring.addPasskey).toHaveBeenCalledWith('Home');
    expect(await screen.findByText('Passkey “Home” added.')).toBeInTheDocument();
    expect(await screen.findByText('Passkey “Home”')).toBeInTheDocument();
    expect(keysLoads()).toHaveLength(2);
  });

  it('when the browser cannot use a passkey for keys, then it says so and suggests a passphrase', async () => {
    const keyring = open();
    keyring.addPasskey.mockRejectedValueOnce(Object.assign(new Error('no PRF'), { name: 'PasskeyUnavailableError' }));
    fireEvent.change(await screen.findByLabelText('Name of the passkey'), { target: { value: 'Phone' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add a passkey' })));
    expect(await screen.findByRole('alert')).toHaveTextContent('Use an unlock passphrase instead.');
  });

  it('when an unlock passphrase is set, then a short or mismatched one is refused, and a good one goes to the keyring', async () => {
    const keyring = open();
    const passphrase = await screen.findByLabelText('Unlock passphrase');
    const repeat = screen.getByLabelText('Repeat the unlock passphrase');
    const set = screen.getByRole('button', { name: 'Set the unlock passphrase' });
    fireEvent.change(passphrase, { target: { value: 'short' } });
    fireEvent.change(repeat, { target: { value: 'short' } });
    fireEvent.click(set);
    expect(await screen.findByText('The passphrase must be at least 10 characters')).toBeInTheDocument();
    fireEvent.change(passphrase, { target: { value: 'a long unlock passphrase' } });
    fireEvent.change(repeat, { target: { value: 'another one entirely' } });
    fireEvent.click(set);
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(keyring.addPassphrase).not.toHaveBeenCalled();

    fireEvent.change(repeat, { target: { value: 'a long unlock passphrase' } });
    await act(async () => fireEvent.click(set));
    expect(keyring.addPassphrase).toHaveBeenCalledWith('a long unlock passphrase');
    expect(await screen.findByText('Unlock passphrase set.')).toBeInTheDocument();
  });

  it('when the person has an unlock passphrase already, then they are told to remove it before choosing another', async () => {
    own = ownKeys([method('00000000-0000-4000-8000-0000000000b1', 'password'), method(PASSKEY_ID, 'passphrase')]);
    open();
    expect(await screen.findByText(/You have an unlock passphrase/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Set the unlock passphrase' })).toBeNull();
  });

  it('when a passkey is removed after confirming, then it is deleted and leaves the list', async () => {
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Passkey “Work laptop”' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Passkey “Work laptop”?' });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' })));
    expect(await screen.findByText('Passkey “Work laptop” removed.')).toBeInTheDocument();
    const sent = fetchMock.mock.calls.find(([, init]) => init?.method === 'DELETE');
    expect(sent?.[0]).toBe(`/api/account/profile/keys/unlock/${PASSKEY_ID}`);
    await waitFor(() => expect(screen.queryByText('Passkey “Work laptop”')).toBeNull());
  });

  it('when the server refuses the removal, then its sentence shows and the method stays', async () => {
    const refusal = 'This is your only way to unlock your keys: add another first';
    deletion = () => answer(400, { message: 'Bad Request', errors: { id: [refusal] } });
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Passkey “Work laptop”' }));
    await act(async () =>
      fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove' })),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);
    expect(screen.getByText('Passkey “Work laptop”')).toBeInTheDocument();
  });

  it('when the keys are locked, then nothing can be added until they are unlocked', async () => {
    const keyring = fakeKeyring();
    await keyring.lock();
    open(keyring);
    expect(await screen.findByText(/Unlock your keys with the banner/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add a passkey' })).toBeNull();
  });

  it('when the page is in French, then the section is in French', async () => {
    open(fakeKeyring(), fr);
    expect(await screen.findByRole('heading', { name: 'Moyens de déverrouillage' })).toBeInTheDocument();
    expect(await screen.findByText('Clé d’accès « Work laptop »')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Ajouter une clé d’accès' })).toBeInTheDocument();
  });
});
