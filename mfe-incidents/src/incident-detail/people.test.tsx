import type { i18n } from 'i18next';
import { fireEvent, screen, within } from '@testing-library/react';
import type { StaffState } from '@whistle/api-client';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { openCasePage } from '../../test/case-page';
import { json, staffState, testCompany, useNodeWebCrypto, type TestCompany } from '../../test/staff-fixtures';

/* The assignment control: roles beside names, who cannot read reports yet, and a search in a large team. */

const realFetch = global.fetch;
const fetchMock = jest.fn<Promise<Response>, [string, RequestInit]>();
let company: TestCompany;
let english: i18n;
const HAL = '22222222-2222-4222-8222-222222222222';
const ADA = '11111111-1111-4111-8111-111111111111';

beforeAll(async () => {
  useNodeWebCrypto();
  company = await testCompany();
  english = await initTestI18n<i18n>('en');
});
afterAll(() => {
  global.fetch = realFetch;
});

async function openCase(state: StaffState = staffState()) {
  await openCasePage({
    company,
    language: english,
    fetchMock,
    state,
    answer: ({ method, url }) =>
      method === 'GET' && url === '/api/account/company/keys/people'
        ? json(200, {
            people: [ADA, HAL].map((id) => ({
              user_id: id,
              full_name: id === ADA ? 'Ada Lovelace' : 'Hal Handler',
              roles: [id === ADA ? 'ADMIN' : 'HANDLER'],
              // Hal has no keys yet: nothing can be wrapped to him.
              public_key: id === ADA ? `v1.${'P'.repeat(87)}` : null,
              signing_public_key: id === ADA ? `v1.${'S'.repeat(87)}` : null,
              fingerprint: id === ADA ? 'ADAF INGE RPR1 NT00 0001' : null,
              company_key: id === ADA ? 'granted' : 'missing',
              access_request: null,
            })),
          })
        : undefined,
  });
  const picker = within(await screen.findByRole('group', { name: 'Assign the case' }));
  // The team comes with the signed-in state.
  await picker.findByRole('checkbox', { name: /^Hal Handler/ });
  return picker;
}

describe('the assignment control', () => {
  it('when a person cannot read reports yet, then the picker says so beside their name, with their roles', async () => {
    const picker = await openCase();
    const hal = picker.getByRole('checkbox', { name: /^Hal Handler/ });
    expect(await picker.findByText(/cannot read reports yet/)).toBeInTheDocument();
    expect(hal).toHaveAccessibleDescription('cannot read reports yet: an admin must grant them access first');
    expect(picker.getByRole('checkbox', { name: /^Ada Lovelace Admin/ })).not.toHaveAccessibleDescription();
    expect(picker.getByLabelText('fingerprint of their keys')).toHaveTextContent('ADAF INGE RPR1 NT00 0001');
    expect(picker.getByRole('checkbox', { name: /^Hal Handler Handler/ })).toBe(hal);
    expect(picker.queryByRole('searchbox')).toBeNull();
  });

  it('when the team is large, then a search by name narrows the list, and keeps those already chosen', async () => {
    const state = staffState();
    const more = Array.from({ length: 9 }, (_, index) => ({
      uuid: `33333333-3333-4333-8333-00000000000${index}`,
      full_name: index === 4 ? 'Zoe Zimmer' : `Member ${index}`,
      roles: ['HANDLER'],
    }));
    const large = {
      ...state,
      company: { ...state.company, user_profiles: [...state.company.user_profiles, ...more] },
    } as StaffState;
    const picker = await openCase(large);
    const search = picker.getByRole('searchbox', { name: 'Find a person' });
    fireEvent.change(search, { target: { value: 'nobody' } });
    expect(picker.getByText('Nobody by that name.')).toBeInTheDocument();
    fireEvent.change(search, { target: { value: '' } });
    fireEvent.click(picker.getByRole('checkbox', { name: /^Member 1/ }));
    fireEvent.change(search, { target: { value: 'zoe' } });
    expect(picker.getAllByRole('checkbox').map((box) => box.closest('label')!.textContent!.trim())).toEqual([
      'Member 1 Handler',
      'Zoe Zimmer Handler',
    ]);
  });
});
