import { randomInt } from 'node:crypto';

const SUFFIX_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
const SUFFIX_LENGTH = 6;

/**
 * A readable, unguessable public address: a slug of the company name plus a random suffix
 * (`acme-corp-k7m2qa`). The suffix keeps companies from colliding and from being enumerated by name,
 * and it always contains a dash, so it never clashes with fixed paths like `/company/profile/`.
 */
export function makeUrlIdentifier(companyName: string): string {
  const slug = companyName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  let suffix = '';
  for (let i = 0; i < SUFFIX_LENGTH; i += 1) suffix += SUFFIX_ALPHABET[randomInt(SUFFIX_ALPHABET.length)];
  return `${slug || 'company'}-${suffix}`;
}
