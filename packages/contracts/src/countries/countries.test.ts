import { countries, countryOptions } from './countries';

test('when country options are asked in French, then every country is there once, named in French and sorted for French', () => {
  const options = countryOptions('fr');
  expect(options).toHaveLength(countries.length);
  expect(new Set(options.map((option) => option.value)).size).toBe(countries.length);
  expect(options.find((option) => option.value === 'DE')?.label).toBe('Allemagne');
  const labels = options.map((option) => option.label);
  expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b, 'fr')));
});

test('when the language tag is not one Intl accepts, then the list falls back to the English names', () => {
  const options = countryOptions('not a language!');
  expect(options.find((option) => option.value === 'FR')?.label).toBe(
    countries.find((country) => country.code === 'FR')?.name,
  );
});
