import DOMPurify from 'dompurify';
import { richTextSanitizer, type RichTextPurifier } from '@whistle/contracts';

/**
 * The description as the discloser will see it: the same allow-list the server applies before storing
 * (RICH_TEXT_RULES in @whistle/contracts), on a DOMPurify instance of this page's own.
 */
export const sanitizeDescription = richTextSanitizer(DOMPurify() as unknown as RichTextPurifier);

/** The part of the Trusted Types API used here (Chromium has it; elsewhere `window.trustedTypes` is undefined). */
interface TrustedTypePolicyFactory {
  createPolicy(name: string, rules: { createHTML(input: string): string }): { createHTML(input: string): TrustedHTML };
}

/**
 * The staff pages require Trusted Types: markup reaches an HTML sink only through a policy the CSP names. This one
 * is the sanitiser itself, so whatever goes through it is the allow-listed description.
 */
const policy = (globalThis as { trustedTypes?: TrustedTypePolicyFactory }).trustedTypes?.createPolicy(
  'whistle-rich-text',
  { createHTML: sanitizeDescription },
);

/** The description sanitised, as an HTML sink takes it: TrustedHTML under Trusted Types, else the string. */
export const trustedDescription = (html: string): string | TrustedHTML =>
  policy ? policy.createHTML(html) : sanitizeDescription(html);
