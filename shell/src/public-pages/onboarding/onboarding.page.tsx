import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { createCompany, isCommonPassword } from '@whistle/api-client';
import { countryOptions } from '@whistle/contracts';
import { Button, SelectField, TextField, useAction, useDocumentTitle } from '@whistle/ui';
import { api } from '../../api';
import { ONBOARDING_FIELDS, readOnboardingValues, validateOnboarding, type OnboardingField } from './onboarding-form';
import { readServerRejection, type ServerMessage } from './server-rejection';

type FieldMessages = Partial<Record<OnboardingField, ServerMessage>>;

/** /company/onboarding: a company admin creates the company account and its key pair. */
export function OnboardingPage() {
  const { t, i18n } = useTranslation(['shell', 'common']);
  const navigate = useNavigate();
  const [errors, setErrors] = useState<FieldMessages>({});
  const [notice, setNotice] = useState<string>();
  const creation = useAction();
  const countries = useMemo(() => countryOptions(i18n.language), [i18n.language]);
  useDocumentTitle(t('onboarding.title'));

  const errorText = (field: OnboardingField) => {
    const message = errors[field];
    if (!message) return undefined;
    return 'key' in message ? t(message.key) : message.text;
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values = readOnboardingValues(new FormData(form));
    const invalid = validateOnboarding(values);
    setNotice(undefined);
    setErrors(Object.fromEntries(Object.entries(invalid).map(([field, key]) => [field, { key }])));
    const firstInvalid = ONBOARDING_FIELDS.find((field) => invalid[field]);
    if (firstInvalid) {
      (form.elements.namedItem(firstInvalid) as HTMLElement | null)?.focus();
      return;
    }
    await creation.run(
      async () => {
        if (await isCommonPassword(api, values.password)) {
          setErrors({ password: { key: 'common:validation.passwordTooCommon' } });
          (form.elements.namedItem('password') as HTMLElement | null)?.focus();
          return;
        }
        // Loaded on submit only: no other page pays for the crypto code.
        const { createCompanyCredentials } = await import('@whistle/crypto');
        const { credential, passphrase } = await createCompanyCredentials();
        const { url_identifier } = await createCompany(api, {
          user_profile: { email: values.email, password: values.password, full_name: values.full_name },
          name: values.company_name,
          credential,
          passphrase,
          country: values.country,
        });
        navigate(`/company/${encodeURIComponent(url_identifier)}/success`);
      },
      {
        recover: (error) => {
          const rejection = readServerRejection(error);
          if (!rejection) return false;
          setErrors(rejection.fields);
          setNotice(rejection.notice);
          return true;
        },
      },
    );
  }

  return (
    <section className="wh-card" aria-labelledby="onboarding-title">
      <h1 id="onboarding-title">{t('onboarding.title')}</h1>
      <p>{t('onboarding.intro')}</p>
      <form noValidate onSubmit={(event) => void submit(event)} aria-busy={creation.busy || undefined}>
        <TextField
          name="email"
          type="email"
          label={t('onboarding.email')}
          autoComplete="email"
          required
          error={errorText('email')}
        />
        <TextField
          name="full_name"
          label={t('onboarding.fullName')}
          autoComplete="name"
          required
          error={errorText('full_name')}
        />
        <TextField
          name="company_name"
          label={t('onboarding.companyName')}
          autoComplete="organization"
          required
          error={errorText('company_name')}
        />
        <TextField
          name="password"
          type="password"
          label={t('onboarding.password')}
          autoComplete="new-password"
          required
          error={errorText('password')}
        />
        <TextField
          name="repeat_password"
          type="password"
          label={t('onboarding.repeatPassword')}
          autoComplete="new-password"
          required
          error={errorText('repeat_password')}
        />
        <SelectField
          name="country"
          label={t('onboarding.country')}
          placeholder={t('onboarding.countryPlaceholder')}
          options={countries}
          required
          error={errorText('country')}
        />
        {notice && (
          <p className="wh-alert" role="alert">
            {t(notice)}
          </p>
        )}
        <div className="wh-actions">
          <Button type="submit" busy={creation.busy}>
            {creation.busy ? t('onboarding.submitting') : t('onboarding.submit')}
          </Button>
        </div>
      </form>
    </section>
  );
}
