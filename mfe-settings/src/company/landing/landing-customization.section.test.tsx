import type { i18n } from 'i18next';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { createApiClient, type StaffSession, type StaffState } from '@whistle/api-client';
import { StaffSessionContext } from '@whistle/ui/staff';
import { initTestI18n } from '../../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../../test/render';
import { settingsRoutes } from '../../settings.routes';
import { fakeKeyring } from '../../../test/fake-keyring';

const answer = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

const admin = {
  uuid: '00000000-0000-4000-8000-000000000001',
  email: 'ada@acme.example',
  full_name: 'Ada Admin',
  roles: ['ADMIN'],
  mfa_auth_factor_id: null,
  last_sign_in_at: null,
  invitation_pending: false,
};

function session(customization: {
  title: string | null;
  description: string | null;
  logo: string | null;
  translations?: Partial<Record<string, { title: string | null; description: string | null }>>;
  languages?: { offered: string[]; default: string };
}) {
  const state = {
    profile: admin,
    company: {
      uuid: '00000000-0000-4000-8000-0000000000c1',
      name: 'Acme',
      country: 'DE',
      url_identifier: 'acme',
      public_key: 'pk',
      translations: {},
      languages: { offered: ['en', 'fr'], default: 'en' },
      ...customization,
      mfa_required: false,
      sso_enabled: false,
      settings: { resolution_deadline_days: 14, notifications: {} },
      user_profiles: [admin],
      categories: [],
      locations: [],
    },
  } as unknown as StaffState;
  return {
    api: createApiClient({ getToken: () => 'staff-token' }),
    staff: async () => state,
    reloadStaff: jest.fn(async () => state),
    subscribe: () => () => undefined,
    replaceToken: jest.fn(async () => undefined),
    keyring: fakeKeyring(),
  } as unknown as StaffSession & { reloadStaff: jest.Mock };
}

let english: i18n;
let fetchMock: jest.SpyInstance;
beforeAll(async () => {
  english = await initTestI18n<i18n>('en');
});
beforeEach(() => {
  fetchMock = jest.spyOn(globalThis, 'fetch');
});
afterEach(() => fetchMock.mockRestore());

function open(customization = { title: null, description: null, logo: null } as Parameters<typeof session>[0]) {
  const staff = session(customization);
  const router = createMemoryRouter(settingsRoutes, { initialEntries: ['/company/settings/company'] });
  renderWithI18n(
    <StaffSessionContext.Provider value={staff}>
      <RouterProvider router={router} />
    </StaffSessionContext.Provider>,
    english,
  );
  return staff;
}

const sent = (call: number) => {
  const [url, init] = fetchMock.mock.calls[call] as [string, RequestInit];
  return { url, method: init.method, body: init.body ? JSON.parse(init.body as string) : undefined };
};
const preview = () => screen.getByTestId('landing-preview');

describe('disclosure page customisation (company settings)', () => {
  it('when nothing is customised, then the preview shows the discloser defaults, and a typed title shows at once', async () => {
    open();
    const title = await screen.findByLabelText('Title');
    expect(within(preview()).getByRole('heading', { name: 'Speak up, you’re safe' })).toBeInTheDocument();
    expect(within(preview()).getByText(/This is a safe place to report/)).toBeInTheDocument();
    expect(within(preview()).getByRole('img', { name: 'Whistle' })).toBeInTheDocument();
    fireEvent.change(title, { target: { value: 'Talk to us' } });
    expect(within(preview()).getByRole('heading', { name: 'Talk to us' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Description' })).toHaveAttribute('contenteditable', 'true');
    expect(screen.getByRole('toolbar', { name: 'Formatting' })).toBeInTheDocument();
  });

  it('when the description holds injected markup, then the preview shows it with the server rules: no image, script or javascript link', async () => {
    open({
      title: 'Tell us',
      description:
        '<p>Hello <strong>team</strong><img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script></p>' +
        '<p><a href="javascript:alert(1)">bad</a> <a href="https://ethics.example">good</a></p>',
      logo: '/api/account/company/acme/logo?v=0123456789abcdef',
    });
    await screen.findByLabelText('Title');
    const shown = preview();
    expect(within(shown).getByText('team').tagName).toBe('STRONG');
    expect(shown.querySelector('script, [onerror]')).toBeNull();
    expect(within(shown).getAllByRole('img')).toHaveLength(1);
    expect(within(shown).getByRole('img', { name: 'Acme' })).toHaveAttribute(
      'src',
      '/api/account/company/acme/logo?v=0123456789abcdef',
    );
    expect(within(shown).getByText('bad')).not.toHaveAttribute('href');
    expect(within(shown).getByRole('link', { name: 'good' })).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('when the title and description are saved, then both are sent and "Updated company" shows', async () => {
    const staff = open({ title: 'Old', description: '<p>Kept text</p>', logo: null });
    const title = await screen.findByLabelText('Title');
    fireEvent.change(title, { target: { value: '  New title ' } });
    fetchMock.mockResolvedValueOnce(
      answer(200, { title: 'New title', description: '<p>Kept text</p>', logo_url: null, translations: {} }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save disclosure page' }));
    expect(await screen.findByText('Updated company')).toBeInTheDocument();
    expect(sent(0)).toEqual({
      url: '/api/account/company/customization',
      method: 'PUT',
      body: { title: 'New title', description: '<p>Kept text</p>' },
    });
    expect(staff.reloadStaff).toHaveBeenCalled();
  });

  it('when the server refuses the title, then its message shows on the field', async () => {
    open();
    fireEvent.change(await screen.findByLabelText('Title'), { target: { value: 'x' } });
    fetchMock.mockResolvedValueOnce(
      answer(400, { message: 'Bad Request', errors: { title: ['Ensure this field has no more than 120 characters'] } }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save disclosure page' }));
    expect(await screen.findByText('Ensure this field has no more than 120 characters')).toBeInTheDocument();
    expect(screen.queryByText('Updated company')).not.toBeInTheDocument();
  });

  it('when a logo over 512 kB or of another type is chosen, then it is refused in the browser and nothing is sent', async () => {
    open();
    const input = await screen.findByLabelText('Upload a logo');
    const big = new File([new Uint8Array(512 * 1024 + 1)], 'logo.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [big] } });
    expect(await screen.findByText('Max logo size is 512 kB')).toBeInTheDocument();
    const gif = new File([new Uint8Array(10)], 'logo.gif', { type: 'image/gif' });
    fireEvent.change(input, { target: { files: [gif] } });
    expect(await screen.findByText('The logo must be a PNG, JPEG or SVG image')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('when a PNG is uploaded, then it is sent as base64 and previewed; removing it brings the default back', async () => {
    open();
    const input = await screen.findByLabelText('Upload a logo');
    const png = new File([Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], 'logo.png', {
      type: 'image/png',
    });
    const logoUrl = '/api/account/company/acme/logo?v=aaaaaaaaaaaaaaaa';
    fetchMock.mockResolvedValueOnce(
      answer(200, { title: null, description: null, logo_url: logoUrl, translations: {} }),
    );
    fireEvent.change(input, { target: { files: [png] } });
    expect(await screen.findByText('Updated company')).toBeInTheDocument();
    expect(sent(0)).toEqual({
      url: '/api/account/company/customization/logo',
      method: 'PUT',
      body: { content: 'iVBORw0KGgo=' },
    });
    expect(within(preview()).getByRole('img', { name: 'Acme' })).toHaveAttribute('src', logoUrl);

    fetchMock.mockResolvedValueOnce(answer(200, { title: null, description: null, logo_url: null, translations: {} }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove logo' }));
    await waitFor(() => expect(within(preview()).getByRole('img', { name: 'Whistle' })).toBeInTheDocument());
    expect(sent(1)).toMatchObject({ url: '/api/account/company/customization/logo', method: 'DELETE' });
    expect(screen.queryByRole('button', { name: 'Remove logo' })).not.toBeInTheDocument();
  });

  it('when a German text is written, then it is sent for German only, and switching back shows the default text', async () => {
    open({
      title: 'Speak up',
      description: '<p>Default</p>',
      logo: null,
      translations: { fr: { title: 'Parlez', description: null } },
      languages: { offered: ['en', 'de', 'fr'], default: 'en' },
    });
    const textLanguage = await screen.findByLabelText('Text shown in');
    expect(
      within(textLanguage)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Every language without its own text', 'English', 'Deutsch', 'Français']);
    fireEvent.change(textLanguage, { target: { value: 'fr' } });
    expect(screen.getByLabelText('Title')).toHaveValue('Parlez');
    fireEvent.change(textLanguage, { target: { value: 'de' } });
    expect(screen.getByLabelText('Title')).toHaveValue('');
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Sprechen Sie' } });
    fetchMock.mockResolvedValueOnce(
      answer(200, {
        title: 'Speak up',
        description: '<p>Default</p>',
        logo_url: null,
        translations: { fr: { title: 'Parlez', description: null }, de: { title: 'Sprechen Sie', description: null } },
      }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save disclosure page' }));
    expect(await screen.findByText('Updated company')).toBeInTheDocument();
    expect(sent(0)).toEqual({
      url: '/api/account/company/customization',
      method: 'PUT',
      body: { language: 'de', title: 'Sprechen Sie', description: null },
    });
    expect(screen.getByLabelText('Title')).toHaveValue('Sprechen Sie');
    fireEvent.change(textLanguage, { target: { value: 'default' } });
    expect(screen.getByLabelText('Title')).toHaveValue('Speak up');
  });

  it('when languages are chosen, then the offered list and the default are sent; none offered is refused in the page', async () => {
    const staff = open({
      title: null,
      description: null,
      logo: null,
      languages: { offered: ['en', 'fr'], default: 'en' },
    });
    const languages = await screen.findByRole('group', { name: 'Offered languages' });
    expect(within(languages).getAllByRole('checkbox')).toHaveLength(27);
    expect(within(languages).getByRole('checkbox', { name: 'English' })).toBeChecked();
    expect(within(languages).getByRole('checkbox', { name: 'Deutsch' })).not.toBeChecked();

    fireEvent.click(within(languages).getByRole('checkbox', { name: 'English' }));
    fireEvent.click(within(languages).getByRole('checkbox', { name: 'Français' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save languages' }));
    expect(await screen.findByText('Offer at least one language')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.click(within(languages).getByRole('checkbox', { name: 'Deutsch' }));
    fireEvent.click(within(languages).getByRole('checkbox', { name: 'English' }));
    fireEvent.change(screen.getByLabelText('Default language'), { target: { value: 'de' } });
    fetchMock.mockResolvedValueOnce(answer(200, { offered: ['en', 'de'], default: 'de' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save languages' }));
    expect(await screen.findByText('Updated company')).toBeInTheDocument();
    // In the platform's order, whatever order they were ticked in.
    expect(sent(0)).toEqual({
      url: '/api/account/company/languages',
      method: 'PUT',
      body: { offered: ['en', 'de'], default: 'de' },
    });
    expect(staff.reloadStaff).toHaveBeenCalled();
    expect(
      within(screen.getByLabelText('Text shown in'))
        .getAllByRole('option')
        .map((option) => option.getAttribute('value')),
    ).toEqual(['default', 'en', 'de']);
  });
});
