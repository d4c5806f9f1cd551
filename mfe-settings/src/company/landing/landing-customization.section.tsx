import { lazy, Suspense, useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldErrorsOf, removeLogo, updateCustomization, uploadLogo } from '@whistle/api-client';
import type { CompanyCustomization, CompanyLanguages, DiscloserLanguage } from '@whistle/contracts';
import { Button, LANGUAGE_NAMES, SelectField, Spinner, TextField, useAction } from '@whistle/ui';
import { useStaffSession } from '@whistle/ui/staff';
import './landing-customization.css';
import { LandingLanguages } from './landing-languages.section';
import { LandingPreview } from './landing-preview.component';
import { logoFileProblem, readAsBase64 } from './logo-file';

const RichTextEditor = lazy(() => import('./rich-text-editor.component'));

export interface LandingCustomizationProps {
  companyName: string;
  /** As the own-company view has it (title, description as stored, logo address). */
  initial: CompanyCustomization;
  /** The languages the page offers: a text can be written for each. */
  languages: CompanyLanguages;
  /** A change was saved: the page shows 'Updated company'. */
  onSaved(): void;
}

interface Errors {
  title?: string;
  description?: string;
  logo?: string;
}

/** The text being edited: the company's default one, or one language's. */
type TextLanguage = DiscloserLanguage | 'default';

const textIn = (customization: CompanyCustomization, language: TextLanguage) =>
  language === 'default'
    ? { title: customization.title, description: customization.description }
    : (customization.translations[language] ?? { title: null, description: null });

/**
 * The discloser landing page's title, description and logo (spec §2, §3 customization), with a live preview, its
 * languages and a text per language (issue #29). Loaded only when the company page opens, with its editor, so the
 * rest of the settings app stays small.
 */
export default function LandingCustomization({ companyName, initial, languages, onSaved }: LandingCustomizationProps) {
  const { t } = useTranslation(['settings', 'common']);
  const session = useStaffSession();
  const ids = { description: useId(), descriptionHelp: useId(), logo: useId() };
  const [stored, setStored] = useState(initial);
  const [offered, setOffered] = useState(languages.offered);
  const [textLanguage, setTextLanguage] = useState<TextLanguage>('default');
  const [title, setTitle] = useState(initial.title ?? '');
  const [description, setDescription] = useState(initial.description ?? '');
  const [errors, setErrors] = useState<Errors>({});
  const action = useAction();
  const busy = { text: action.isBusy('text'), logo: action.isBusy('logo') };

  /** A 400 names the field; anything else is the page's failure. */
  const attempt = (kind: 'text' | 'logo', call: () => Promise<CompanyCustomization>) =>
    action.run(
      async () => {
        const answer = await call();
        setStored(answer);
        setErrors({});
        if (kind === 'text') setTitle(textIn(answer, textLanguage).title ?? '');
        // The own-company view (and so this page's next visit) reads the same columns.
        await session.reloadStaff();
        onSaved();
      },
      {
        key: kind,
        recover: (error) => {
          const serverErrors = fieldErrorsOf(error);
          if (serverErrors)
            setErrors({
              title: serverErrors.title?.[0],
              description: serverErrors.description?.[0],
              logo: serverErrors.content?.[0],
            });
          return Boolean(serverErrors);
        },
      },
    );

  async function saveText(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const language = textLanguage === 'default' ? {} : { language: textLanguage };
    await attempt('text', () =>
      updateCustomization(session.api, { ...language, title: title.trim() || null, description: description || null }),
    );
  }

  /** Another language's text in the fields (the editor starts again from what is stored for it). */
  function editTextIn(language: TextLanguage) {
    const text = textIn(stored, language);
    setTextLanguage(language);
    setTitle(text.title ?? '');
    setDescription(text.description ?? '');
    setErrors({});
  }

  async function chooseLogo(event: ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0];
    event.currentTarget.value = '';
    if (!file) return;
    const problem = logoFileProblem(file);
    if (problem) return setErrors({ logo: t(`customization.logoErrors.${problem}`) });
    const content = await readAsBase64(file);
    await attempt('logo', () => uploadLogo(session.api, content));
  }

  return (
    <>
      <form
        className="wh-card settings-landing"
        noValidate
        aria-labelledby="landing-customization-heading"
        aria-busy={busy.text || undefined}
        onSubmit={(event) => void saveText(event)}
      >
        <h2 id="landing-customization-heading">{t('customization.heading')}</h2>
        <p>{t('customization.intro')}</p>
        <SelectField
          name="text_language"
          label={t('customization.textLanguage')}
          value={textLanguage}
          options={[
            { value: 'default', label: t('customization.textLanguageDefault') },
            ...offered.map((language) => ({ value: language, label: LANGUAGE_NAMES[language] })),
          ]}
          onChange={(event) => editTextIn(event.currentTarget.value as TextLanguage)}
        />
        <TextField
          name="title"
          label={t('customization.title')}
          placeholder={t('customization.defaultTitle')}
          value={title}
          maxLength={120}
          onChange={(event) => setTitle(event.currentTarget.value)}
          error={errors.title}
        />
        <div className="wh-field">
          <span className="wh-field__label" id={ids.description}>
            {t('customization.description')}
          </span>
          <p className="settings-landing__help" id={ids.descriptionHelp}>
            {t('customization.descriptionHelp')}
          </p>
          <Suspense fallback={<Spinner />}>
            <RichTextEditor
              key={textLanguage}
              labelId={ids.description}
              describedById={ids.descriptionHelp}
              initialHtml={textIn(stored, textLanguage).description ?? ''}
              onChange={setDescription}
            />
          </Suspense>
          {errors.description && (
            <p className="wh-field__error" role="alert">
              {errors.description}
            </p>
          )}
        </div>
        <div className="wh-actions">
          <Button type="submit" busy={busy.text}>
            {t('customization.save')}
          </Button>
        </div>
      </form>

      <LandingLanguages
        initial={languages}
        onSaved={(saved) => {
          setOffered(saved.offered);
          if (textLanguage !== 'default' && !saved.offered.includes(textLanguage)) editTextIn('default');
          onSaved();
        }}
      />

      <section
        className="wh-card settings-landing"
        aria-labelledby="landing-logo-heading"
        aria-busy={busy.logo || undefined}
      >
        <h2 id="landing-logo-heading">{t('customization.logo')}</h2>
        <p id={`${ids.logo}-help`}>{t('customization.logoHelp')}</p>
        <div className="wh-field">
          <label className="wh-field__label" htmlFor={ids.logo}>
            {t('customization.logoChoose')}
          </label>
          <input
            id={ids.logo}
            type="file"
            accept="image/png,image/jpeg,image/svg+xml"
            aria-describedby={`${ids.logo}-help`}
            aria-invalid={errors.logo ? true : undefined}
            disabled={busy.logo}
            onChange={(event) => void chooseLogo(event)}
          />
          {errors.logo && (
            <p className="wh-field__error" role="alert">
              {errors.logo}
            </p>
          )}
        </div>
        {stored.logo_url && (
          <div className="wh-actions">
            <Button
              variant="danger"
              busy={busy.logo}
              onClick={() => void attempt('logo', () => removeLogo(session.api))}
            >
              {t('customization.logoRemove')}
            </Button>
          </div>
        )}
      </section>

      <LandingPreview companyName={companyName} title={title} description={description} logoUrl={stored.logo_url} />
    </>
  );
}
