import { lazy, Suspense, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldErrorsOf, updateCompany } from '@whistle/api-client';
import { countryOptions } from '@whistle/contracts';
import { Button, SelectField, Spinner, TextField, useAction, useDocumentTitle } from '@whistle/ui';
import { usePageToast, useStaffSession, useStaffState } from '@whistle/ui/staff';

/** The landing page's customisation, its editor and sanitiser: downloaded when this page opens, not before. */
const LandingCustomization = lazy(() => import('./landing/landing-customization.section'));

/**
 * /company/settings/company (ADMIN): the company's name and country (both required, spec §5), then the
 * discloser landing page's title, description and logo (spec §3 customization).
 */
export function CompanyPage() {
  const { t, i18n } = useTranslation(['settings', 'common']);
  const session = useStaffSession();
  const state = useStaffState();
  const { toast, show } = usePageToast(t('dismiss'));
  const options = useMemo(() => countryOptions(i18n.language), [i18n.language]);
  const [errors, setErrors] = useState<{ name?: string; country?: string }>({});
  const save = useAction();
  useDocumentTitle(t('company.title'));
  if (!state) return <Spinner />;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const values = new FormData(event.currentTarget);
    const name = String(values.get('name') ?? '').trim();
    const country = String(values.get('country') ?? '');
    const required = t('common:validation.required');
    const invalid = { name: name ? undefined : required, country: country ? undefined : required };
    setErrors(invalid);
    if (invalid.name || invalid.country) return;
    await save.run(
      async () => {
        await updateCompany(session.api, { name, country });
        await session.reloadStaff();
        show(t('company.updated'));
      },
      {
        recover: (error) => {
          const serverErrors = fieldErrorsOf(error);
          if (serverErrors) setErrors({ name: serverErrors.name?.[0], country: serverErrors.country?.[0] });
          return Boolean(serverErrors);
        },
      },
    );
  }

  const { company } = state;
  return (
    <>
      <h1>{t('company.title')}</h1>
      <form className="wh-card" noValidate onSubmit={(event) => void submit(event)} aria-busy={save.busy || undefined}>
        <TextField name="name" label={t('company.name')} defaultValue={company.name} required error={errors.name} />
        <SelectField
          name="country"
          label={t('company.country')}
          options={options}
          defaultValue={company.country}
          required
          error={errors.country}
        />
        <TextField name="url_identifier" label={t('company.urlIdentifier')} value={company.url_identifier} readOnly />
        <div className="wh-actions">
          <Button type="submit" busy={save.busy}>
            {t('actions.save')}
          </Button>
        </div>
      </form>
      <Suspense fallback={<Spinner />}>
        <LandingCustomization
          companyName={company.name}
          initial={{
            title: company.title,
            description: company.description,
            logo_url: company.logo,
            translations: company.translations,
          }}
          languages={company.languages}
          onSaved={() => show(t('company.updated'))}
        />
      </Suspense>
      {toast}
    </>
  );
}
