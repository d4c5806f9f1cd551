import type { z } from 'zod';
import { InputError, type FieldErrors } from './errors';

/** Key for problems with the input as a whole (no field path), as Django REST framework names it. */
export const nonFieldErrorsKey = 'non_field_errors';

/** An InputError whose `errors` are keyed by dot-joined field paths (`credential.aes_iv`, `fields.0`). */
export function inputErrorFromZod(error: z.ZodError, message = 'Invalid request'): InputError {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? issue.path.map(String).join('.') : nonFieldErrorsKey;
    (errors[key] ??= []).push(issue.message);
  }
  return new InputError(message, errors);
}
