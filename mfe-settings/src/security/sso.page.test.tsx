import type { i18n } from 'i18next';
import { fireEvent, screen, within } from '@testing-library/react';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { ada, answer, fakeSession, openSettings, sentRequest } from '../../test/security-pages';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----';
const serviceProvider = {
  entity_id: 'https://whistle.example/api/account/company/sso/metadata',
  acs_url: 'https://whistle.example/api/account/company/sso/acs',
};
const notConfigured = {
  configured: false,
  enabled: false,
  require_sso: false,
  entry_point: '',
  idp_certificate: '',
  certificate: null,
  email_attribute: '',
  service_provider: serviceProvider,
};
const configured = {
  ...notConfigured,
  configured: true,
  enabled: true,
  entry_point: 'https://idp.acme.example/sso',
  idp_certificate: PEM,
  certificate: {
    subject: 'CN=idp.acme.example, O=Acme',
    issuer: 'CN=Acme Root',
    valid_from: '2025-01-01T00:00:00.000Z',
    valid_to: '2099-06-30T12:00:00.000Z',
    fingerprint_sha256: 'AB:CD',
  },
};

let en: i18n;
let fetchMock: jest.SpyInstance;
beforeAll(async () => {
  en = await initTestI18n<i18n>('en');
});
beforeEach(() => {
  fetchMock = jest.spyOn(globalThis, 'fetch');
});
afterEach(() => fetchMock.mockRestore());

const open = (path: string, session = fakeSession(), instance = en) => openSettings(path, instance, session);
const call = (index: number) => sentRequest(fetchMock, index);

describe('single sign-on page', () => {
  it('when it opens, then the IdP settings, the saved certificate and what to give the IdP show; the test form posts the own e-mail to a new tab', async () => {
    fetchMock.mockResolvedValueOnce(answer(200, configured));
    open('/company/settings/sso');
    expect(await screen.findByRole('heading', { name: 'Single sign-on', level: 1 })).toBeInTheDocument();
    expect(call(0)).toMatchObject({ url: '/api/account/company/sso', method: 'GET' });

    expect(screen.getByText(serviceProvider.entity_id)).toBeInTheDocument();
    expect(screen.getByText(serviceProvider.acs_url)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download the service provider metadata (XML)' })).toHaveAttribute(
      'href',
      '/api/account/company/sso/metadata',
    );
    expect(screen.getByLabelText('Identity provider sign-in URL')).toHaveValue(configured.entry_point);
    expect(screen.getByLabelText('Identity provider signing certificate (PEM)')).toHaveValue(PEM);
    const saved = screen.getByRole('region', { name: 'Saved certificate' });
    expect(saved).toHaveTextContent('CN=idp.acme.example, O=Acme');
    expect(saved).toHaveTextContent('2099');
    expect(within(saved).queryByRole('alert')).toBeNull();
    expect(screen.getByRole('switch', { name: 'Enable single sign-on' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Require single sign-on for staff' })).not.toBeChecked();

    const test = screen.getByRole('button', { name: /Test sign-in/ });
    expect(test).toBeEnabled();
    const form = test.closest('form')!;
    expect(form).toHaveAttribute('action', '/api/account/company/sso/redirect');
    expect(form).toHaveAttribute('method', 'post');
    expect(form).toHaveAttribute('target', '_blank');
    expect(new FormData(form).get('email')).toBe(ada.email);
  });

  it('when nothing is configured, then the fields are empty, the test waits for a save, and required fields are said before anything is sent', async () => {
    fetchMock.mockResolvedValueOnce(answer(200, notConfigured));
    open('/company/settings/sso');
    fireEvent.click(await screen.findByRole('button', { name: 'Save single sign-on' }));
    expect(await screen.findAllByText('This field is required')).toHaveLength(2);
    expect(screen.getByLabelText('Identity provider sign-in URL')).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: /Test sign-in/ })).toBeDisabled();
    expect(screen.getByText('Save the settings with single sign-on enabled to test it.')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Require single sign-on for staff' })).toBeDisabled();
  });

  it('when an admin saves the IdP and requires SSO, then all is sent, the answer shows, the staff state reloads and "Updated settings" shows', async () => {
    fetchMock.mockResolvedValueOnce(answer(200, notConfigured));
    const { session } = open('/company/settings/sso');
    fireEvent.change(await screen.findByLabelText('Identity provider sign-in URL'), {
      target: { value: ' https://idp.acme.example/sso ' },
    });
    fireEvent.change(screen.getByLabelText('Identity provider signing certificate (PEM)'), { target: { value: PEM } });
    fireEvent.change(screen.getByLabelText('E-mail attribute'), { target: { value: 'mail' } });
    fireEvent.click(screen.getByRole('switch', { name: 'Enable single sign-on' }));
    fireEvent.click(screen.getByRole('switch', { name: 'Require single sign-on for staff' }));
    fetchMock.mockResolvedValueOnce(
      answer(200, { ...configured, require_sso: true, email_attribute: 'mail', entry_point: configured.entry_point }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save single sign-on' }));
    expect(await screen.findByText('Updated settings')).toBeInTheDocument();
    expect(call(1)).toEqual({
      url: '/api/account/company/sso',
      method: 'PUT',
      body: {
        enabled: true,
        require_sso: true,
        entry_point: 'https://idp.acme.example/sso',
        idp_certificate: PEM,
        email_attribute: 'mail',
      },
    });
    expect(session.reloadStaff).toHaveBeenCalled();
    expect(screen.getByRole('region', { name: 'Saved certificate' })).toHaveTextContent('CN=idp.acme.example');
    expect(screen.getByRole('button', { name: /Test sign-in/ })).toBeEnabled();
  });

  it('when single sign-on is switched off, then "require" turns off with it and is sent off', async () => {
    fetchMock.mockResolvedValueOnce(answer(200, { ...configured, require_sso: true }));
    open('/company/settings/sso');
    const require = await screen.findByRole('switch', { name: 'Require single sign-on for staff' });
    expect(require).toBeChecked();
    fireEvent.click(screen.getByRole('switch', { name: 'Enable single sign-on' }));
    expect(require).not.toBeChecked();
    expect(require).toBeDisabled();
    fetchMock.mockResolvedValueOnce(answer(200, { ...configured, enabled: false }));
    fireEvent.click(screen.getByRole('button', { name: 'Save single sign-on' }));
    await screen.findByText('Updated settings');
    expect(call(1).body).toMatchObject({ enabled: false, require_sso: false });
  });

  it('when the server refuses the certificate and the URL, then each field shows its message in the page language', async () => {
    fetchMock.mockResolvedValueOnce(answer(200, configured));
    open('/company/settings/sso');
    await screen.findByLabelText('Identity provider sign-in URL');
    fetchMock.mockResolvedValueOnce(
      answer(400, {
        message: 'Bad Request',
        errors: { idp_certificate: ['Expired certificate'], entry_point: ['Invalid URL'], email_attribute: ['Odd'] },
      }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save single sign-on' }));
    expect(
      await screen.findByText('This certificate has expired. Paste your identity provider’s current certificate.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Identity provider signing certificate (PEM)')).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(screen.getByText('Enter an http or https address.')).toBeInTheDocument();
    // A message the page does not know is shown as the server said it.
    expect(screen.getByText('Odd')).toBeInTheDocument();
    expect(screen.queryByText('Updated settings')).toBeNull();
  });

  it('when the server refuses requiring SSO, then the sign-in switches are marked with the reason', async () => {
    fetchMock.mockResolvedValueOnce(answer(200, configured));
    open('/company/settings/sso');
    await screen.findByLabelText('Identity provider sign-in URL');
    fetchMock.mockResolvedValueOnce(
      answer(400, {
        message: 'Bad Request',
        errors: { require_sso: ['Single sign-on must be enabled to require it'] },
      }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save single sign-on' }));
    const message = await screen.findByText('Enable single sign-on to require it.');
    const group = screen.getByRole('group', { name: 'Sign-in' });
    expect(group).toHaveAttribute('aria-invalid', 'true');
    expect(group.getAttribute('aria-describedby')).toBe(message.id);
  });

  it('when the saved certificate has expired, then the page warns that sign-in through the IdP fails', async () => {
    fetchMock.mockResolvedValueOnce(
      answer(200, {
        ...configured,
        certificate: { ...configured.certificate, valid_to: '2020-02-01T00:00:00.000Z' },
      }),
    );
    open('/company/settings/sso');
    expect(await screen.findByRole('alert')).toHaveTextContent('This certificate has expired');
  });

  it('in French, then the page and a refused certificate speak French', async () => {
    const fr = await initTestI18n<i18n>('fr');
    fetchMock.mockResolvedValueOnce(answer(200, configured));
    open('/company/settings/sso', fakeSession(), fr);
    expect(await screen.findByRole('heading', { name: 'Authentification unique', level: 1 })).toBeInTheDocument();
    fetchMock.mockResolvedValueOnce(
      answer(400, { message: 'Bad Request', errors: { idp_certificate: ['Invalid certificate'] } }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Enregistrer l’authentification unique' }));
    expect(await screen.findByText('Ce n’est pas un certificat. Collez un certificat PEM.')).toBeInTheDocument();
  });
});
