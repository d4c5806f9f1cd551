import { z } from '../zod';
import { discloserLanguageSchema } from './languages';

/** Longest custom landing title: a heading, not a paragraph. */
export const CUSTOM_TITLE_MAX_LENGTH = 120;
/** Longest description accepted, as HTML before sanitising: a few screens of rich text. */
export const CUSTOM_DESCRIPTION_MAX_LENGTH = 20_000;
/** Largest logo accepted, in bytes (512 kB): a header image, never a photo album. */
export const LOGO_MAX_BYTES = 512 * 1024;
/** The logo formats the server accepts, recognised by their first bytes, never by the client's claim. */
export const LOGO_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/svg+xml'] as const;
export type LogoContentType = (typeof LOGO_CONTENT_TYPES)[number];

/** Base64 of LOGO_MAX_BYTES, padding included: a longer string cannot decode to an acceptable logo. */
const LOGO_MAX_BASE64_LENGTH = Math.ceil(LOGO_MAX_BYTES / 3) * 4;

/**
 * PUT /api/account/company/customization (ADMIN): the landing page's title (plain text) and description
 * (rich text, sanitised by the server before it is stored). An empty or null value brings the default back.
 * With `language`, the text shown in that language instead of the company's default text (both null: none).
 */
export const customizationUpdateRequestSchema = z.strictObject({
  language: discloserLanguageSchema.optional(),
  title: z
    .string()
    .trim()
    .max(CUSTOM_TITLE_MAX_LENGTH, `Ensure this field has no more than ${CUSTOM_TITLE_MAX_LENGTH} characters`)
    .nullable(),
  description: z
    .string()
    .max(
      CUSTOM_DESCRIPTION_MAX_LENGTH,
      `Ensure this field has no more than ${CUSTOM_DESCRIPTION_MAX_LENGTH} characters`,
    )
    .nullable(),
});
export type CustomizationUpdateRequest = z.infer<typeof customizationUpdateRequestSchema>;

export const LOGO_TOO_LARGE_MESSAGE = 'Max logo size is 512 kB';
export const LOGO_TYPE_MESSAGE = 'The logo must be a PNG, JPEG or SVG image';

/** PUT /api/account/company/customization/logo (ADMIN): the image, base64. Its type is read from its bytes. */
export const logoUploadRequestSchema = z.strictObject({
  content: z
    .string({ error: (issue) => (issue.input === undefined ? 'This field is required' : undefined) })
    .min(1, 'This field is required')
    .max(LOGO_MAX_BASE64_LENGTH, LOGO_TOO_LARGE_MESSAGE)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, LOGO_TYPE_MESSAGE),
});
export type LogoUploadRequest = z.infer<typeof logoUploadRequestSchema>;

/**
 * The landing page's customisation as the discloser's page and the admin's preview read it. null = the
 * default (the translated default title and description, the default logo). `description` is HTML that the
 * server has sanitised with the rich-text rules below; `logo_url` names the current image by its content hash.
 */
const landingTextSchema = z.object({ title: z.string().nullable(), description: z.string().nullable() });

export const companyCustomizationSchema = landingTextSchema.extend({
  logo_url: z.string().nullable(),
  /** The title and description in other languages, where the company wrote them; the default text elsewhere. */
  translations: z.partialRecord(discloserLanguageSchema, landingTextSchema),
});
export type CompanyCustomization = z.infer<typeof companyCustomizationSchema>;

/**
 * The rich-text allow-list, shared by the server that stores descriptions and the admin page that previews
 * them, so the preview shows what the discloser will see. Text structure only: no images, styles, classes,
 * ids, tables, forms or media; links only to http(s) and mailto, always opening a new tab without referrer.
 */
export const RICH_TEXT_RULES = {
  tags: ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 'ul', 'ol', 'li', 'a', 'h2', 'h3', 'h4'],
  attributes: ['href', 'target', 'rel'],
  linkProtocols: /^(?:https?:|mailto:)/i,
  linkRel: 'noopener noreferrer nofollow',
  linkTarget: '_blank',
} as const;

/** The part of a DOMPurify instance the rules need (the server's runs on jsdom, the browser's on the page). */
export interface RichTextPurifier {
  sanitize(dirty: string, config: Record<string, unknown>): unknown;
  addHook(
    entryPoint: 'afterSanitizeAttributes',
    hook: (node: {
      nodeName: string;
      getAttribute(name: string): string | null;
      setAttribute(name: string, value: string): void;
    }) => void,
  ): void;
}

/**
 * Turns a DOMPurify instance into the rich-text sanitiser: the allow-list above, and every remaining link
 * forced to open in a new tab with `rel="noopener noreferrer nofollow"`. Give it an instance of its own: the
 * hook stays on it.
 */
export function richTextSanitizer(purify: RichTextPurifier): (html: string) => string {
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName !== 'A') return;
    node.setAttribute('target', RICH_TEXT_RULES.linkTarget);
    node.setAttribute('rel', RICH_TEXT_RULES.linkRel);
  });
  const config = {
    ALLOWED_TAGS: [...RICH_TEXT_RULES.tags],
    ALLOWED_ATTR: [...RICH_TEXT_RULES.attributes],
    ALLOWED_URI_REGEXP: RICH_TEXT_RULES.linkProtocols,
    // The text inside a removed formatting element stays; DOMPurify's default list still drops the content of
    // script, style, template, iframe, svg, math and the like entirely.
    KEEP_CONTENT: true,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
  };
  return (html) => String(purify.sanitize(html, config)).trim();
}

/** Whether sanitised rich text shows anything at all (`<p></p>` does not): an empty one means the default. */
export function richTextIsEmpty(html: string): boolean {
  return html.replace(/<[^>]*>/g, '').replace(/&nbsp;|\s/g, '') === '';
}
