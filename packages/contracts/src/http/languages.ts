import { z } from '../zod';
import { DISCLOSER_LANGUAGE_CODES } from '../languages/discloser-languages';
import { STAFF_LANGUAGE_CODES } from '../languages/staff-languages';

export const discloserLanguageSchema = z.enum(DISCLOSER_LANGUAGE_CODES, { error: 'Unknown language' });

/** A staff member's language (their pages and mails): one of the staff pages' eight. */
export const staffLanguageSchema = z.enum(STAFF_LANGUAGE_CODES, { error: 'Unknown language' });
export type StaffLanguage = z.infer<typeof staffLanguageSchema>;

/** The languages a company's disclosure page offers, and the one a first visit falls back to. */
export const companyLanguagesSchema = z.object({
  offered: z.array(discloserLanguageSchema),
  default: discloserLanguageSchema,
});
export type CompanyLanguages = z.infer<typeof companyLanguagesSchema>;

/** What a company that never chose offers: every language, English first. */
export const ALL_LANGUAGES: CompanyLanguages = { offered: [...DISCLOSER_LANGUAGE_CODES], default: 'en' };

export const DEFAULT_LANGUAGE_NOT_OFFERED_MESSAGE = 'The default language must be one of the offered languages';

/** PUT /api/account/company/languages (ADMIN): which languages the disclosure page offers, and its default. */
export const languagesUpdateRequestSchema = z
  .strictObject({
    offered: z
      .array(discloserLanguageSchema)
      .min(1, 'Offer at least one language')
      .refine((languages) => new Set(languages).size === languages.length, 'Each language once'),
    default: discloserLanguageSchema,
  })
  .refine((request) => request.offered.includes(request.default), {
    path: ['default'],
    message: DEFAULT_LANGUAGE_NOT_OFFERED_MESSAGE,
  });
export type LanguagesUpdateRequest = z.infer<typeof languagesUpdateRequestSchema>;
