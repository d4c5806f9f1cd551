import DOMPurify from 'dompurify';
import { richTextSanitizer, type RichTextPurifier } from '@whistle/contracts';

/**
 * The description as the discloser will see it: the same allow-list the server applies before storing
 * (RICH_TEXT_RULES in @whistle/contracts), on a DOMPurify instance of this page's own.
 */
export const sanitizeDescription = richTextSanitizer(DOMPurify() as unknown as RichTextPurifier);
