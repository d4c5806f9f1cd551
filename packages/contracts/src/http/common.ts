import { z } from '../zod';

/** Spec §5/§8: the message for a missing field. */
export const REQUIRED_MESSAGE = 'This field is required';

/**
 * A field's own `error`: 'This field is required' when it is missing, and otherwise nothing, so the
 * failing check says what is wrong (too long, not text...) instead of claiming the field is missing.
 */
export const requiredWhenMissing = (issue: { input?: unknown }) =>
  issue.input === undefined ? REQUIRED_MESSAGE : undefined;

/** Self-describing output of @whistle/crypto: `v1.` then base64url parts joined by dots. */
export const versionedString = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^v[0-9]+\.[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, 'Invalid encrypted value');

/** A random secret made by the browser (base64url, at least 256 bits). */
export const randomSecret = z.string().regex(/^[A-Za-z0-9_-]{43,128}$/, 'Invalid secret');

/** Company public address: lower-case letters, digits and dashes. */
export const urlIdentifier = z.string().regex(/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/, 'Invalid url_identifier');

/** Body of every 4xx/5xx answer. `errors` maps field paths (dot-joined) to messages. */
export const errorBodySchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  exists: z.boolean().optional(),
  invalid: z.boolean().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const roleSchema = z.enum(['ADMIN', 'REVIEWER', 'HANDLER']);
export type Role = z.infer<typeof roleSchema>;
/**
 * The one role a person's key is listed and endorsed with for the discloser (docs/security.md, "Signed staff
 * messages"): their highest, as the public company view lists it.
 */
export const teamRole = (roles: readonly Role[]): Role =>
  roles.includes('ADMIN') ? 'ADMIN' : roles.includes('REVIEWER') ? 'REVIEWER' : 'HANDLER';

/** A repeated query parameter (an array) or a comma list (bookmarkable URLs), empty entries dropped, then `items`. */
export const queryList = <T extends z.ZodType<unknown, string>>(items: z.ZodArray<T>) =>
  z
    .union([z.string(), z.array(z.string())])
    .transform((value) => (Array.isArray(value) ? value : value.split(',')).filter((entry) => entry !== ''))
    .pipe(items);
