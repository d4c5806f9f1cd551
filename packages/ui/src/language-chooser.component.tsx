import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_NAMES, STAFF_LANGUAGES, type Language } from './languages';

/**
 * Switches the shared i18next instance; the shell persists the choice (spec: 'i18n-language'). Each language is
 * named in itself, so a person finds theirs whatever the page is shown in.
 */
export function LanguageChooser({ languages = STAFF_LANGUAGES }: { languages?: readonly Language[] }) {
  const { t, i18n } = useTranslation('common');
  const id = useId();
  return (
    <div className="wh-language">
      <label className="wh-visually-hidden" htmlFor={id}>
        {t('language.label')}
      </label>
      <select
        id={id}
        className="wh-input wh-language__select"
        value={i18n.resolvedLanguage ?? i18n.language}
        onChange={(event) => void i18n.changeLanguage(event.target.value)}
      >
        {languages.map((language) => (
          <option key={language} value={language} lang={language}>
            {LANGUAGE_NAMES[language]}
          </option>
        ))}
      </select>
    </div>
  );
}
