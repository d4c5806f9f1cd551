/**
 * RabbitMQ topic matching, so the in-process bus routes exactly like the broker: names and patterns are
 * dot-separated words, `*` stands for exactly one word and `#` for zero or more.
 */
export function topicMatches(pattern: string, name: string): boolean {
  return matchWords(pattern.split('.'), 0, name.split('.'), 0);
}

function matchWords(pattern: string[], p: number, words: string[], w: number): boolean {
  if (p === pattern.length) return w === words.length;
  const head = pattern[p];
  if (head === '#') {
    // Let `#` swallow 0, 1, 2 ... words and try the rest of the pattern after each.
    for (let skip = w; skip <= words.length; skip++) {
      if (matchWords(pattern, p + 1, words, skip)) return true;
    }
    return false;
  }
  if (w === words.length) return false;
  return (head === '*' || head === words[w]) && matchWords(pattern, p + 1, words, w + 1);
}
