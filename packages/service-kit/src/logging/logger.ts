import { pino, stdTimeFunctions, type DestinationStream } from 'pino';

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

export interface LogFn {
  (message: string): void;
  (bindings: object, message?: string): void;
}

/** The logger every part of the platform receives. Domain code depends on this, never on pino. */
export interface Logger {
  child(bindings: Record<string, unknown>): Logger;
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
}

const censor = '[redacted]';

/**
 * Fields that must never reach a log: credentials, tokens and everything a discloser or handler
 * writes (encrypted or not: ciphertext in logs widens what a log reader can attack offline).
 * Paths cover a top-level field and the same field one level down (`*.x`), which is how these
 * values appear in practice (`{ body }`, `{ credential }`, `{ config }`); deeper nesting is not
 * covered, so never log whole request bodies or domain objects.
 */
const sensitiveFields = [
  'password',
  'new_password',
  'passphrase',
  'token',
  'access_token',
  'refresh_token',
  'challenge_code',
  'secret',
  'mfa_secret',
  'qr_code',
  'uniquePassword',
  'retrieval_id',
  'credential',
  'aes_encrypted_private_key',
  'company_encrypted_passphrase',
  'discloser_encrypted_passphrase',
  'discloser_auth_token',
  'encrypted_private_key',
  'private_key',
  'fields',
  'content',
  'text',
  'file_name',
  'body',
  // Configuration values that embed credentials.
  'DATABASE_URL',
  'AMQP_URL',
  'SMTP_URL',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
];

export const redactPaths: readonly string[] = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  ...sensitiveFields.flatMap((field) => [field, `*.${field}`]),
];

export interface CreateLoggerOptions {
  name: string;
  level?: LogLevel;
  /** Where JSON lines go; standard output when absent. */
  destination?: DestinationStream;
}

/** A pino logger writing one JSON line per entry, with secrets censored as "[redacted]". */
export function createLogger({ name, level = 'info', destination }: CreateLoggerOptions): Logger {
  return pino(
    {
      name,
      level,
      redact: { paths: [...redactPaths], censor },
      timestamp: stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}
