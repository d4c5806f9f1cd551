import { countries } from '@whistle/contracts';
import type { SelectOption } from '@whistle/ui';

/** Every country of the contracts list, named in the page language by the browser, sorted for it. */
export function countryOptions(language: string): SelectOption[] {
  let names: Intl.DisplayNames | undefined;
  try {
    names = new Intl.DisplayNames([language], { type: 'region' });
  } catch {
    names = undefined;
  }
  return countries
    .map((country) => ({ value: country.code, label: names?.of(country.code) ?? country.name }))
    .sort((a, b) => a.label.localeCompare(b.label, language));
}
