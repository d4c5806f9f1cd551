// Regenerates src/countries/countries.json from the countries-list data package:
// `npm run generate:countries -w @whistle/contracts`. The JSON is committed so browsers and services
// share one list without shipping the whole package.
import fs from 'node:fs';
import { countries } from 'countries-list';

const flagOf = (code) => String.fromCodePoint(...[...code].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
const list = Object.entries(countries)
  .map(([code, c]) => ({ name: c.name, code, dialCode: `+${c.phone[0]}` }))
  .sort((a, b) => a.name.localeCompare(b.name, 'en'))
  // flagOffset: the entry's row in a 1-column flag sprite, kept for clients that draw flags from a sprite.
  .map((c, index) => ({ ...c, flag: flagOf(c.code), flagOffset: index }));
fs.writeFileSync(new URL('../src/countries/countries.json', import.meta.url), JSON.stringify(list, null, 1) + '\n');
console.log(`${list.length} countries`);
