import { matchCase, searchWords } from './case-search';

const fields = (description: string, extra: Record<string, string> = {}) => [
  { name: 'description', value: description },
  ...Object.entries(extra).map(([name, value]) => ({ name, value })),
];

describe('searching a case’s words', () => {
  it('when the query has spaces, repeats and capitals, then its words are distinct, lower case, without accents', () => {
    expect(searchWords('  Été  ete\tCAFÉ ')).toEqual(['ete', 'cafe']);
    expect(searchWords('   ')).toEqual([]);
  });

  it('when every word is in the case, whatever its case, accents or field, then it matches with a snippet of the original', () => {
    const match = matchCase(
      fields('Les factures de l’Été 2025 ont été signées par le Directeur.', { full_name: 'Zoë Martin' }),
      searchWords('ete zoe'),
    );
    expect(match).toEqual({
      field: 'description',
      snippet: 'Les factures de l’Été 2025 ont été signées par le Directeur.',
    });
    // Far from the start, the snippet is cut and says so.
    expect(matchCase(fields(`${'x '.repeat(40)}ÉTÉ ${'y '.repeat(40)}`), searchWords('été'))!.snippet).toBe(
      `…${'x '.repeat(20)}ÉTÉ ${'y '.repeat(19)}y…`,
    );
  });

  it('when one word is missing, or there are none, then the case does not match', () => {
    expect(matchCase(fields('Invoices from the quarry'), searchWords('quarry gate'))).toBeNull();
    expect(matchCase(fields('Invoices from the quarry'), [])).toBeNull();
  });

  it('when the text is decomposed, long or holds characters beyond the BMP, then the snippet quotes it around the match', () => {
    const decomposed = 'Cafe\u0301 au lait';
    expect(matchCase(fields(decomposed), searchWords('café'))).toEqual({ field: 'description', snippet: decomposed });
    const long = `${'a'.repeat(100)} 🦊 Renard\nrusé ${'b'.repeat(100)}`;
    const { snippet } = matchCase(fields(long), searchWords('renard'))!;
    expect(snippet).toBe(`…${'a'.repeat(36)} 🦊 Renard rusé ${'b'.repeat(34)}…`);
  });

  it('when a word is found only in a later field, then the snippet quotes that field', () => {
    expect(matchCase(fields('Nothing here', { location_detail: 'Warehouse 7' }), searchWords('warehouse'))).toEqual({
      field: 'location_detail',
      snippet: 'Warehouse 7',
    });
  });
});
