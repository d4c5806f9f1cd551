import { richTextIsEmpty, richTextSanitizer, type RichTextPurifier } from '@whistle/contracts';
import { newDomPurifier } from './dom-purifier';

let sanitize: ((html: string) => string) | undefined;

/**
 * The landing description as it is stored: DOMPurify with the shared rich-text allow-list (RICH_TEXT_RULES), so
 * what reaches a discloser's page is already clean. null when nothing visible is left (the default then shows).
 */
export function sanitizeRichText(html: string): string | null {
  sanitize ??= richTextSanitizer(newDomPurifier().purify as unknown as RichTextPurifier);
  const clean = sanitize(html);
  return richTextIsEmpty(clean) ? null : clean;
}
