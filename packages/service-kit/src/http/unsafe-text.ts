import type { RequestHandler } from 'express';
import { InputError } from '../errors/errors';

/** Deeper than any payload of the API: refused before a recursive validator could overflow the stack. */
export const MAX_BODY_DEPTH = 32;

const NUL = '\u0000';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why `text` cannot be stored, if it cannot: NUL (PostgreSQL text refuses it, so it would end as a 500)
 * or an unpaired UTF-16 surrogate (not Unicode: encoding it for the database or a mail would fail or
 * silently change it).
 */
function textProblem(text: string): string | undefined {
  if (text.includes(NUL)) return 'Invalid characters: NUL is not allowed';
  if (LONE_SURROGATE.test(text)) return 'Invalid characters: not valid Unicode';
  return undefined;
}

/**
 * The first place in a parsed body or query that no schema should ever see: a string (value or key)
 * with NUL or a lone surrogate, or nesting deeper than MAX_BODY_DEPTH. Walked without recursion.
 */
export function findUnsafeText(input: unknown): { path: string; message: string } | undefined {
  const pending: { value: unknown; path: string[] }[] = [{ value: input, path: [] }];
  while (pending.length > 0) {
    const { value, path } = pending.pop()!;
    if (typeof value === 'string') {
      const message = textProblem(value);
      if (message) return { path: path.join('.'), message };
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (path.length >= MAX_BODY_DEPTH) return { path: path.join('.'), message: 'Too deeply nested' };
    for (const [key, inner] of Object.entries(value)) {
      const message = textProblem(key);
      if (message) return { path: [...path, key.replace(/[^\x20-\x7e]/g, '?')].join('.'), message };
      pending.push({ value: inner, path: [...path, key] });
    }
  }
  return undefined;
}

/**
 * 400 for a body or query holding text the platform cannot store, before any handler runs: one check for
 * every endpoint, so none answers 500 to a NUL byte. The error names the field.
 */
export const rejectUnsafeText: RequestHandler = (req, _res, next) => {
  for (const [input, message] of [
    [req.body, 'Invalid request body'],
    [req.query, 'Invalid query parameters'],
  ] as const) {
    const problem = findUnsafeText(input);
    if (problem) {
      next(new InputError(message, { [problem.path || 'non_field_errors']: [problem.message] }));
      return;
    }
  }
  next();
};
