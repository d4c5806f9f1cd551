import { InputError } from '@whistle/service-kit';

/** The spec's `exists` answer: the domain (or the address) already belongs to a company. */
export function domainExists(): InputError {
  return new InputError(
    'Bad Request',
    { 'user_profile.email': ['An account using this email domain already exists'] },
    { exists: true },
  );
}

export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const pgError = error as { code?: string; constraint?: string; message?: string };
  return (
    pgError?.code === '23505' && (pgError.constraint === constraint || Boolean(pgError.message?.includes(constraint)))
  );
}
