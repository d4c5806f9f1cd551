import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { SUPPORTED_LANGUAGES } from './languages';

/** Switches the shared i18next instance; the shell persists the choice (spec: 'i18n-language'). */
export function LanguageChooser() {
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
        {SUPPORTED_LANGUAGES.map((language) => (
          <option key={language} value={language} lang={language}>
            {t(`language.${language}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
