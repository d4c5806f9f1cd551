/**
 * Searching a case's decrypted words, in the search worker: every word of the query must appear somewhere in the
 * case (in any order, any field), ignoring case and accents ("éte" finds "Été"). Pure, so it is tested alone.
 */

/** Characters of context each side of the match in a snippet. */
const CONTEXT = 40;

/** A text folded for matching, and for each of its characters the index of the original one it came from. */
interface Folded {
  text: string;
  origin: number[];
}

/**
 * Lower case without accents: each code point decomposed (NFD) and stripped of its combining marks, then lower-cased
 * (locale-independent: the same case reads alike for every viewer). The index map lets a snippet quote the original.
 */
function fold(text: string): Folded {
  let folded = '';
  const origin: number[] = [];
  let index = 0;
  for (const char of text) {
    const piece = char.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    for (let i = 0; i < piece.length; i += 1) origin.push(index);
    folded += piece;
    index += char.length;
  }
  return { text: folded, origin };
}

/** The query's distinct words, folded; none for a query of spaces. */
export function searchWords(query: string): string[] {
  return [
    ...new Set(
      query
        .split(/\s+/u)
        .map((word) => fold(word).text)
        .filter(Boolean),
    ),
  ];
}

export interface CaseMatch {
  /** The field the snippet quotes (the first where a word appears). */
  field: string;
  /** About 80 characters of it around the first word found, on one line, '…' where cut. */
  snippet: string;
}

function snippetAround(text: string, start: number, end: number): string {
  const from = Math.max(0, start - CONTEXT);
  const to = Math.min(text.length, end + CONTEXT);
  const quoted = text.slice(from, to).replace(/\s+/gu, ' ').trim();
  return `${from > 0 ? '…' : ''}${quoted}${to < text.length ? '…' : ''}`;
}

/**
 * Whether a case's fields hold every word (folded, from `searchWords`), and where: null when one is missing or
 * there are no words.
 */
export function matchCase(
  fields: readonly { name: string; value: string }[],
  words: readonly string[],
): CaseMatch | null {
  if (words.length === 0) return null;
  const folded = fields.map((field) => ({ field, ...fold(field.value) }));
  if (!words.every((word) => folded.some(({ text }) => text.includes(word)))) return null;
  for (const { field, text, origin } of folded) {
    const at = text.indexOf(words[0]!);
    if (at < 0) continue;
    const start = origin[at]!;
    const last = origin[at + words[0]!.length - 1]!;
    // The original character at `last` may be a surrogate pair: the match ends after it.
    const end = last + (field.value.codePointAt(last)! > 0xffff ? 2 : 1);
    return { field: field.name, snippet: snippetAround(field.value, start, end) };
  }
  return null;
}
