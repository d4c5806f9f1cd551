/**
 * A pseudo-locale made from English at test time (issue #29 "Tests"), never offered to users: every letter accented,
 * every vowel doubled and the text padded to at least 40 % longer than English, so long translations (German,
 * Finnish, Greek) and accents that need room above the line show up in a layout check. i18next placeholders
 * (`{{name}}`), nesting (`$t(key)`) and markup stay as they are.
 */
const ACCENTED: Record<string, string> = {
  a: 'á',
  b: 'ƀ',
  c: 'ç',
  d: 'ð',
  e: 'é',
  f: 'ƒ',
  g: 'ĝ',
  h: 'ĥ',
  i: 'í',
  j: 'ĵ',
  k: 'ķ',
  l: 'ĺ',
  m: 'ɱ',
  n: 'ñ',
  o: 'ó',
  p: 'þ',
  q: 'ǫ',
  r: 'ŕ',
  s: 'š',
  t: 'ţ',
  u: 'ú',
  v: 'ṽ',
  w: 'ŵ',
  x: 'ẋ',
  y: 'ý',
  z: 'ž',
  A: 'Å',
  B: 'Ɓ',
  C: 'Ç',
  D: 'Ð',
  E: 'É',
  F: 'Ƒ',
  G: 'Ĝ',
  H: 'Ĥ',
  I: 'Î',
  J: 'Ĵ',
  K: 'Ķ',
  L: 'Ļ',
  M: 'Ṁ',
  N: 'Ñ',
  O: 'Ö',
  P: 'Þ',
  Q: 'Ǫ',
  R: 'Ŕ',
  S: 'Š',
  T: 'Ţ',
  U: 'Û',
  V: 'Ṽ',
  W: 'Ŵ',
  X: 'Ẋ',
  Y: 'Ý',
  Z: 'Ž',
};
const VOWELS = /[aeiouAEIOU]/;
/** What must reach i18next unchanged: placeholders, nested keys, tags. */
const KEPT = /(\{\{[^}]*\}\}|\$t\([^)]*\)|<[^>]*>)/;

export function pseudoText(english: string): string {
  const pieces = english.split(KEPT);
  const text = pieces
    .map((piece, index) =>
      index % 2 === 1
        ? piece
        : [...piece]
            .map((character) => (ACCENTED[character] ?? character).repeat(VOWELS.test(character) ? 2 : 1))
            .join(''),
    )
    .join('');
  const letters = pieces.filter((_piece, index) => index % 2 === 0).join('').length;
  const missing =
    Math.ceil(letters * 1.4) -
    [
      ...text
        .split(KEPT)
        .filter((_p, i) => i % 2 === 0)
        .join(''),
    ].length;
  return missing > 0 ? `${text} ${'ẋ'.repeat(Math.max(missing - 1, 1))}` : text;
}

type Tree = { [key: string]: string | Tree };

/** A translation file with every text made pseudo. */
export function pseudoLocale(tree: Tree): Tree {
  return Object.fromEntries(
    Object.entries(tree).map(([key, value]) => [
      key,
      typeof value === 'string' ? pseudoText(value) : pseudoLocale(value),
    ]),
  );
}
