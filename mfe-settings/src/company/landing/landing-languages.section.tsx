import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldErrorsOf, updateLanguages } from '@whistle/api-client';
import type { CompanyLanguages, DiscloserLanguage } from '@whistle/contracts';
import { Button, DISCLOSER_LANGUAGES, LANGUAGE_NAMES, SelectField, useAction } from '@whistle/ui';
import { useStaffSession } from '@whistle/ui/staff';

export interface LandingLanguagesProps {
  initial: CompanyLanguages;
  /** The languages were saved (the answer): the text editor offers those. */
  onSaved(languages: CompanyLanguages): void;
}

/**
 * Which languages the disclosure page offers, and its default (issue #29 item 3): its chooser lists these only, and
 * a first visit is shown in the browser's preferred language among them, else in the default.
 */
export function LandingLanguages({ initial, onSaved }: LandingLanguagesProps) {
  const { t } = useTranslation(['settings', 'common']);
  const session = useStaffSession();
  const [offered, setOffered] = useState<readonly DiscloserLanguage[]>(initial.offered);
  const [defaultLanguage, setDefault] = useState(initial.default);
  const [errors, setErrors] = useState<{ offered?: string; default?: string }>({});
  const save = useAction();

  const toggle = (language: DiscloserLanguage) =>
    setOffered((current) =>
      current.includes(language)
        ? current.filter((each) => each !== language)
        : DISCLOSER_LANGUAGES.filter((each) => each === language || current.includes(each as DiscloserLanguage)),
    );

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (offered.length === 0) return setErrors({ offered: t('customization.languagesNone') });
    if (!offered.includes(defaultLanguage)) return setErrors({ default: t('customization.languagesDefaultOffered') });
    await save.run(
      async () => {
        const answer = await updateLanguages(session.api, { offered: [...offered], default: defaultLanguage });
        setErrors({});
        await session.reloadStaff();
        onSaved(answer);
      },
      {
        recover: (error) => {
          const serverErrors = fieldErrorsOf(error);
          if (serverErrors) setErrors({ offered: serverErrors.offered?.[0], default: serverErrors.default?.[0] });
          return Boolean(serverErrors);
        },
      },
    );
  }

  return (
    <form
      className="wh-card settings-landing"
      noValidate
      aria-labelledby="landing-languages-heading"
      aria-busy={save.busy || undefined}
      onSubmit={(event) => void submit(event)}
    >
      <h2 id="landing-languages-heading">{t('customization.languagesHeading')}</h2>
      <p>{t('customization.languagesIntro')}</p>
      <fieldset className="settings-checks settings-languages" aria-describedby="landing-languages-error">
        <legend>{t('customization.languagesOffered')}</legend>
        {DISCLOSER_LANGUAGES.map((language) => (
          <label key={language} lang={language}>
            <input
              type="checkbox"
              name="offered"
              value={language}
              checked={offered.includes(language as DiscloserLanguage)}
              onChange={() => toggle(language as DiscloserLanguage)}
            />
            {LANGUAGE_NAMES[language]}
          </label>
        ))}
      </fieldset>
      {errors.offered && (
        <p className="wh-field__error" id="landing-languages-error" role="alert">
          {errors.offered}
        </p>
      )}
      <SelectField
        name="default"
        label={t('customization.languagesDefault')}
        value={defaultLanguage}
        options={offered.map((language) => ({ value: language, label: LANGUAGE_NAMES[language] }))}
        onChange={(event) => setDefault(event.currentTarget.value as DiscloserLanguage)}
        error={errors.default}
      />
      <div className="wh-actions">
        <Button type="submit" busy={save.busy}>
          {t('customization.languagesSave')}
        </Button>
      </div>
    </form>
  );
}
