import type { z } from 'zod';
import { inputErrorFromZod } from '../errors/input-error-from-zod';

/**
 * The spec's wording for a missing field, and plain words for the limits a schema leaves unworded;
 * other messages come from the schema or zod.
 */
const fieldMessages: z.core.$ZodErrorMap = (issue) => {
  if (issue.input === undefined) return 'This field is required';
  if (issue.code === 'too_big' && issue.origin === 'string')
    return `Ensure this field has no more than ${issue.maximum} characters`;
  if (issue.code === 'too_big' && issue.origin === 'array')
    return `Ensure this list has no more than ${issue.maximum} items`;
  return undefined;
};

function parse<S extends z.ZodType>(schema: S, input: unknown, message: string): z.output<S> {
  const result = schema.safeParse(input, { error: fieldMessages });
  if (!result.success) throw inputErrorFromZod(result.error, message);
  return result.data;
}

/**
 * Validates a request body; throws an InputError (400, per-field `errors`) when it does not fit.
 * No body at all reads as `{}`, so each required field is reported by name.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  return parse(schema, body ?? {}, 'Invalid request body');
}

/** Validates query parameters (strings: use `z.coerce` for numbers); throws an InputError. */
export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.output<S> {
  return parse(schema, query ?? {}, 'Invalid query parameters');
}
