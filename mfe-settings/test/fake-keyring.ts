import type { CompanyKeyStatus, KeyringState, StaffKeyring } from '@whistle/api-client';

/** The company key as an admin who holds it sees it. */
export const HELD: CompanyKeyStatus = {
  state: 'held',
  keyVersion: 1,
  publicKey: `v1.${'C'.repeat(87)}`,
  fingerprint: 'C0MP ANYK EYFP 1234 5678',
  accessRequest: null,
  rotation: null,
};

/**
 * The shell's keyring as the settings pages use it: unlocked, every call a jest mock the tests program and inspect.
 * What opens cases is not the settings' business, so it opens nothing.
 */
export function fakeKeyring(companyKey: Partial<CompanyKeyStatus> = {}) {
  let state: KeyringState = 'unlocked';
  const keyring = {
    state: () => state,
    subscribe: () => () => undefined,
    openCase: jest.fn(async () => {
      throw new Error('No case opens in settings');
    }),
    grantCase: jest.fn(async () => {
      throw new Error('No case is granted in settings');
    }),
    pinCaseKey: jest.fn(async (): Promise<'pinned' | 'changed'> => {
      throw new Error('No case key is pinned in settings');
    }),
    repinCaseKey: jest.fn(async () => {
      throw new Error('No case key is pinned in settings');
    }),
    workerMaterial: () => undefined,
    grantMaterial: () => undefined,
    signForDiscloser: async () => undefined,
    endorseTeamKey: jest.fn(async (_input: Parameters<StaffKeyring['endorseTeamKey']>[0]) => undefined),
    person: () => ({
      publicKey: `v1.${'P'.repeat(87)}`,
      signingPublicKey: `v1.${'S'.repeat(87)}`,
      fingerprint: 'ADAF INGE RPR1 NT00 0001',
    }),
    unlockWithPassword: jest.fn(async () => undefined),
    unlockWithPasskey: jest.fn(async () => undefined),
    unlockWithPassphrase: jest.fn(async () => undefined),
    setUpWithPasskey: jest.fn(async () => undefined),
    setUpWithPassphrase: jest.fn(async () => undefined),
    addPasskey: jest.fn(async (_label: string) => undefined),
    addPassphrase: jest.fn(async (_passphrase: string) => undefined),
    changePassword: jest.fn(async (_current: string, _password: string) => ({
      uuid: '00000000-0000-4000-8000-000000000001',
      email: 'ada@acme.example',
      full_name: 'Ada Admin',
      roles: ['ADMIN' as const],
      mfa_auth_factor_id: null,
      token: 'new-token',
    })),
    lock: jest.fn(async () => {
      state = 'locked';
    }),
    companyKeyStatus: jest.fn(async () => ({ ...HELD, ...companyKey })),
    approveCompanyKey: jest.fn(async (_recipient: Parameters<StaffKeyring['approveCompanyKey']>[0]) => undefined),
    restoreWithRecoveryKit: jest.fn(async () => undefined),
    rotateRecoveryKit: jest.fn(async () => ({
      text: 'ABCD EFGH JKMN PQRS TVWX YZ01 2345 6789',
      fingerprint: HELD.fingerprint,
      createdAt: '2026-11-27T10:00:00.000Z',
    })),
    migrateCompanyKey: jest.fn(async () => ({ text: '', fingerprint: '', createdAt: '' })),
    startCompanyKeyRotation: jest.fn(async (_holders: Parameters<StaffKeyring['startCompanyKeyRotation']>[0]) => ({
      keyVersion: 2,
      recoveryKit: {
        text: 'NEWK EYKI TTEX T000 0000 0000 0000 0000',
        fingerprint: 'NEWC 0MPA NYKE YFP0 0002',
        createdAt: '2026-12-02T10:00:00.000Z',
      },
    })),
  };
  return keyring satisfies StaffKeyring;
}
export type FakeKeyring = ReturnType<typeof fakeKeyring>;
