// The react-i18next surface shared by the Whistle frontends (see react-router.js for why a
// re-export): hooks and the provider; not Trans (31 KB before gzip), the HOCs, ICU macros, SSR helpers.
export { I18nextProvider, initReactI18next, useTranslation } from 'react-i18next-implementation';
