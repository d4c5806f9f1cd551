import { z } from '../zod';
import { discloserLanguageSchema } from './languages';

/*
 * Reply templates (issue 23 item 4): texts an admin keeps for the company, which staff insert into the reply they
 * are writing on a case page. Company configuration kept by the auth service in clear, not report content: a
 * template must not hold a case's details (docs/security.md); the reply made from it is encrypted like any other.
 */

export const REPLY_TEMPLATE_NAME_MAX = 80;
export const REPLY_TEMPLATE_BODY_MAX = 5000;
/** Most templates one company keeps. */
export const REPLY_TEMPLATES_PER_COMPANY = 100;

export const REPLY_TEMPLATE_LANGUAGE_NOT_OFFERED = 'This language is not one of the company’s';

/**
 * POST /api/account/company/reply_template/ and PUT …/reply_template/{uuid} (ADMIN): a name, its text and its language
 * (one the company's disclosure page offers, or a staff language; absent: the company's default language). A name is
 * unique within its language.
 */
export const replyTemplateRequestSchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, 'This field is required')
    .max(REPLY_TEMPLATE_NAME_MAX, `Ensure this field has no more than ${REPLY_TEMPLATE_NAME_MAX} characters`),
  body: z
    .string()
    .max(REPLY_TEMPLATE_BODY_MAX, `Ensure this field has no more than ${REPLY_TEMPLATE_BODY_MAX} characters`)
    .refine((text) => text.trim() !== '', 'This field is required'),
  language: discloserLanguageSchema.optional(),
});
export type ReplyTemplateRequest = z.input<typeof replyTemplateRequestSchema>;

/** A template as staff read it (GET lists the company's by language, then name, for every staff member). */
export const replyTemplateSchema = z.object({
  uuid: z.uuid(),
  name: z.string(),
  language: discloserLanguageSchema,
  body: z.string(),
  updated: z.iso.datetime({ offset: true }),
});
export type ReplyTemplate = z.infer<typeof replyTemplateSchema>;
