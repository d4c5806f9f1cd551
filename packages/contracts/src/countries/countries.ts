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
