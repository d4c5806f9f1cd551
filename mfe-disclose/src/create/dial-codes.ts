import { countries } from '@whistle/contracts';

/**
 * Options of the dial-code selector. Several countries share a dial code, so an option's value is
 * `{country code}:{dial code}` (the selected country stays selected); the report sends the dial code.
 */
export const dialCodeOptions = countries.map((country) => ({
  value: `${country.code}:${country.dialCode}`,
  label: `${country.flag} ${country.name} (${country.dialCode})`,
}));

/** The dial code of a selector value ('' when none is chosen). */
export const dialCodeOf = (value: string) => value.split(':')[1] ?? '';
