/**
 * Spec §1/§9: English is the default and fallback; the choice is kept in localStorage. The discloser pages
 * speak the EU's 24 official languages plus Ukrainian, Turkish and Arabic (issue #29); staff pages en, fr, de, es,
 * it, nl, pl, pt (STAFF_LANGUAGES). Each language is named in itself in the chooser
 * (@whistle/ui's LanguageChooser, and the standalone server's drawn first view of a page).
 */
export const LANGUAGE_NAMES = {
  bg: 'Български',
  cs: 'Čeština',
  da: 'Dansk',
  de: 'Deutsch',
  el: 'Ελληνικά',
  en: 'English',
  es: 'Español',
  et: 'Eesti',
  fi: 'Suomi',
  fr: 'Français',
  ga: 'Gaeilge',
  hr: 'Hrvatski',
  hu: 'Magyar',
  it: 'Italiano',
  lt: 'Lietuvių',
  lv: 'Latviešu',
  mt: 'Malti',
  nl: 'Nederlands',
  pl: 'Polski',
  pt: 'Português',
  ro: 'Română',
  sk: 'Slovenčina',
  sl: 'Slovenščina',
  sv: 'Svenska',
  tr: 'Türkçe',
  uk: 'Українська',
  ar: 'العربية',
} as const;
