import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { createCompany, isCommonPassword } from '@whistle/api-client';
import { countryOptions } from '@whistle/contracts';
import { Button, SelectField, TextField, useAction, useDocumentTitle } from '@whistle/ui';
import { RecoveryKitSheet, type RecoveryKitView } from '@whistle/ui/staff';
import { api } from '../../api';
import { onboardingKeys } from '../keys/password-keys';
import {
  ONBOARDING_FIELDS,
  companyCreateRequest,
  readOnboardingValues,
  validateOnboarding,
  type OnboardingField,
} from './onboarding-form';
import { readServerRejection, type ServerMessage } from './server-rejection';

type FieldMessages = Partial<Record<OnboardingField, ServerMessage>>;
type Created = { urlIdentifier: string; kit: RecoveryKitView; companyName: string };

/** Made in this browser on submit: the admin's keys, the company key held by them, and its recovery kit. */
async function createCompanyWithKeys(
  values: ReturnType<typeof readOnboardingValues>,
  pageLanguage: string,
): Promise<Created> {
  const keys = await onboardingKeys(values.password);
  const { url_identifier } = await createCompany(api, companyCreateRequest(values, keys, pageLanguage));
  return { urlIdentifier: encodeURIComponent(url_identifier), kit: keys.kit, companyName: values.company_name };
}

function CreatedKit({ created, onConfirmed }: { created: Created; onConfirmed(): void }) {
  return (
    <section className="wh-card">
      <RecoveryKitSheet kit={created.kit} companyName={created.companyName} onConfirmed={onConfirmed} />
    </section>
  );
}

/** /company/onboarding: a company admin creates the company account and its key pair. */
export function OnboardingPage() {
  const { t, i18n } = useTranslation(['shell', 'common']);
  const navigate = useNavigate();
  const [errors, setErrors] = useState<FieldMessages>({});
  const [notice, setNotice] = useState<string>();
  const creation = useAction();
  const [created, setCreated] = useState<Created>();
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
        // The kit is shown once, before anything else: only the kit restores the company key if every admin loses it.
        setCreated(await createCompanyWithKeys(values, i18n.language));
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

  if (created)
    return <CreatedKit created={created} onConfirmed={() => navigate(`/company/${created.urlIdentifier}/success`)} />;

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
