import { pino, stdSerializers, stdTimeFunctions, type DestinationStream, type Logger as PinoLogger } from 'pino';

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

export interface LogFn {
  (message: string): void;
  (bindings: object, message?: string): void;
}

export interface ChildLoggerOptions {
  /**
   * `false`: the child's entries skip the redaction walk (tens of microseconds an entry with the paths below).
   * Only for entries whose fields are fixed and never secret, such as the one line per request.
   */
  redact?: false;
}

/** The logger every part of the platform receives. Domain code depends on this, never on pino. */
export interface Logger {
  child(bindings: Record<string, unknown>, options?: ChildLoggerOptions): Logger;
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
  'UPLOAD_LIMIT_KEY',
];

export const redactPaths: readonly string[] = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  ...sensitiveFields.flatMap((field) => [field, `*.${field}`]),
];

/**
 * Where database drivers put the values of a failed statement: PGlite's `query` and `params`, PostgreSQL's
 * `detail` (`Key (email)=(…) already exists`), `where` and `internalQuery`. A logged error keeps its code,
 * table and constraint names, never these.
 */
const SQL_VALUE_FIELDS = ['query', 'params', 'parameters', 'detail', 'where', 'internalQuery'];
/** SQLSTATE class 22 (data exception) messages quote the offending value: `invalid input syntax for type uuid: "…"`. */
const QUOTED_VALUE = /: "(?:[^"\\]|\\.)*"/g;

/**
 * A copy of `error` (and of its causes) without the SQL values it may carry, of the same class so the
 * log still says what it was. pino folds causes into the message and stack, hence the copy first.
 */
function withoutSqlValues(error: unknown, depth = 0): unknown {
  if (typeof error !== 'object' || error === null || depth > 8) return error;
  const source = error as Record<string, unknown>;
  const copy = Object.create(Object.getPrototypeOf(source) as object) as Record<string, unknown>;
  for (const key of Object.keys(source)) if (!SQL_VALUE_FIELDS.includes(key)) copy[key] = source[key];
  let message = typeof source.message === 'string' ? source.message : undefined;
  let stack = typeof source.stack === 'string' ? source.stack : undefined;
  if (message !== undefined && typeof source.code === 'string' && source.code.startsWith('22')) {
    const redacted = message.replace(QUOTED_VALUE, ': "[redacted]"');
    stack = stack?.split(message).join(redacted);
    message = redacted;
  }
  Object.defineProperty(copy, 'message', { value: message, enumerable: false, writable: true });
  Object.defineProperty(copy, 'stack', { value: stack, enumerable: false, writable: true });
  if (source.cause !== undefined)
    Object.defineProperty(copy, 'cause', { value: withoutSqlValues(source.cause, depth + 1), enumerable: false });
  if (Array.isArray(source.errors)) copy.errors = source.errors.map((inner) => withoutSqlValues(inner, depth + 1));
  return copy;
}

/** An error as logged: pino's serialisation of it, without SQL values (its causes' neither). */
export function serializeError(error: unknown): unknown {
  return stdSerializers.err(withoutSqlValues(error) as Error);
}

export interface CreateLoggerOptions {
  name: string;
  level?: LogLevel;
  /** Where JSON lines go; standard output when absent. */
  destination?: DestinationStream;
}

/** The platform's Logger over a pino instance; a child without redaction gets an empty list of paths. */
function platformLogger(instance: PinoLogger): Logger {
  return {
    child: (bindings, options) =>
      platformLogger(
        instance.child(bindings, options?.redact === false ? { redact: { paths: [], censor } } : undefined),
      ),
    debug: instance.debug.bind(instance),
    info: instance.info.bind(instance),
    warn: instance.warn.bind(instance),
    error: instance.error.bind(instance),
  };
}

/** A pino logger writing one JSON line per entry, with secrets censored as "[redacted]". */
export function createLogger({ name, level = 'info', destination }: CreateLoggerOptions): Logger {
  const instance = pino(
    {
      name,
      level,
      redact: { paths: [...redactPaths], censor },
      serializers: { err: serializeError },
      timestamp: stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  return platformLogger(instance);
}
