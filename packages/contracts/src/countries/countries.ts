import list from './countries.json';

export interface Country {
  name: string;
  /** ISO 3166-1 alpha-2. */
  code: string;
  /** International dialling prefix, e.g. `+33`. */
  dialCode: string;
  /** Emoji flag, drawn by the system font: no image to download. */
  flag: string;
  flagOffset: number;
}

export const countries: readonly Country[] = list;
export const countryCodes: ReadonlySet<string> = new Set(list.map((country) => country.code));

/**
 * Every country as a choice `{ value: code, label }`, named in `language` by the runtime's Intl data (the
 * list's English name where the runtime has none), sorted for that language: what a country picker shows.
 */
export function countryOptions(language: string): { value: string; label: string }[] {
  let names: Intl.DisplayNames | undefined;
  let locale: string | undefined;
  try {
    names = new Intl.DisplayNames([language], { type: 'region' });
    locale = language;
  } catch {
    // Not a language tag Intl accepts: English names, the runtime's default order.
    names = undefined;
  }
  return countries
    .map((country) => ({ value: country.code, label: names?.of(country.code) ?? country.name }))
    .sort((a, b) => a.label.localeCompare(b.label, locale));
}
