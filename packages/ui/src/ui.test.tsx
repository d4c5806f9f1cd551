import type { i18n } from 'i18next';
import { fireEvent, screen } from '@testing-library/react';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../test/render';
import { Button, ErrorPage, LanguageChooser, RemoteUnavailable, SelectField, TextField } from './index';

describe('ui components', () => {
  it('when an application fails, then the error page says Unexpected Application Error!', async () => {
    renderWithI18n(<ErrorPage />, await initTestI18n<i18n>('en'));
    expect(screen.getByRole('alert')).toHaveTextContent('Unexpected Application Error!');
  });

  it('when a remote is missing, then its place says so, translated', async () => {
    renderWithI18n(<RemoteUnavailable />, await initTestI18n<i18n>('fr'));
    expect(screen.getByRole('heading')).toHaveTextContent('Cette partie de Whistle est indisponible pour le moment.');
  });

  it('when a language is chosen, then the shared instance switches and the page follows', async () => {
    const i18n = await initTestI18n<i18n>('en');
    renderWithI18n(
      <>
        <LanguageChooser />
        <ErrorPage />
      </>,
      i18n,
    );
    fireEvent.change(screen.getByRole('combobox', { name: 'Language' }), { target: { value: 'fr' } });
    expect(i18n.language).toBe('fr');
    expect(await screen.findByRole('combobox', { name: 'Langue' })).toHaveValue('fr');
    expect(screen.getByRole('alert')).toHaveTextContent('Erreur inattendue de l’application !');
  });

  it('when staff open the chooser, then it offers German, Spanish and Italian too, each named in itself', async () => {
    const i18n = await initTestI18n<i18n>('en');
    renderWithI18n(<LanguageChooser />, i18n);
    const names = screen.getAllByRole('option').map((option) => option.textContent);
    expect(names).toEqual(expect.arrayContaining(['English', 'Français', 'Deutsch', 'Español', 'Italiano']));
    fireEvent.change(screen.getByRole('combobox', { name: 'Language' }), { target: { value: 'it' } });
    expect(await screen.findByRole('combobox', { name: 'Lingua' })).toHaveValue('it');
    expect(i18n.t('companyApp.roles.HANDLER', { ns: 'shell' })).toBe('Gestore');
  });

  it('when a field has an error, then the error is bound to its labelled control', async () => {
    renderWithI18n(
      <>
        <TextField name="email" label="Email" error="Invalid email address" />
        <SelectField name="country" label="Country" options={[{ value: 'FR', label: 'France' }]} placeholder="Pick" />
      </>,
      await initTestI18n<i18n>('en'),
    );
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Invalid email address');
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Country')).not.toHaveAttribute('aria-invalid');
  });

  it('when busy, then a button is disabled and says so to assistive technology', async () => {
    renderWithI18n(<Button busy>Save</Button>, await initTestI18n<i18n>('en'));
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Save' })).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('button', { name: 'Save' })).toHaveAttribute('type', 'button');
  });
});
