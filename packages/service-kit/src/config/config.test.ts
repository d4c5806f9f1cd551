import { z } from 'zod';
import { ConfigError } from '../errors/errors';
import { loadConfig } from './load-config';
import { platformConfigSchema } from './platform-config';

function configError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig with the platform schema', () => {
  it('when nothing is set, then every embedded default is chosen', () => {
    expect(loadConfig(platformConfigSchema, {})).toEqual({
      PORT: 8080,
      LOG_LEVEL: 'info',
      DATA_DIR: './data',
      PGLITE_SHARED_BUFFERS: '32MB',
      PGLITE_FSYNC: 'on',
      AMQP_EXCHANGE: 'whistle.events',
      S3_REGION: 'us-east-1',
      MAIL_FROM: 'Whistle <no-reply@whistle.local>',
      PUBLIC_URL: 'http://localhost:8080',
      BODY_LIMIT: '1mb',
      // Spec §8: trace sample rate 1 (error reporting itself is off without SENTRY_DSN).
      SENTRY_TRACES_SAMPLE_RATE: 1,
    });
  });

  it('when cluster variables are set, then they are parsed and typed', () => {
    const config = loadConfig(platformConfigSchema, {
      PORT: '8081',
      LOG_LEVEL: 'debug',
      DATABASE_URL: 'postgres://whistle:pw@db:5432/whistle',
      AMQP_URL: 'amqp://guest:guest@rabbit:5672',
      S3_ENDPOINT: 'http://s3:9000',
      S3_BUCKET: 'files',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
      SMTP_URL: 'smtp://mail:25',
      UNRELATED: 'ignored',
    });
    expect(config).toMatchObject({ PORT: 8081, LOG_LEVEL: 'debug', S3_BUCKET: 'files', SMTP_URL: 'smtp://mail:25' });
    expect(config).not.toHaveProperty('UNRELATED');
  });

  it('when several variables are invalid, then one ConfigError names each of them', () => {
    const error = configError(() =>
      loadConfig(platformConfigSchema, {
        PORT: 'eighty',
        LOG_LEVEL: 'loud',
        DATABASE_URL: 'mysql://db',
        S3_BUCKET: 'files',
        S3_ACCESS_KEY_ID: 'id',
        BODY_LIMIT: 'huge',
        PGLITE_SHARED_BUFFERS: 'lots',
        PGLITE_FSYNC: 'sometimes',
      }),
    );
    expect(error.message).toMatch(/^Invalid configuration: /);
    expect(error.message).toContain('PORT must be a number');
    expect(error.message).toContain('LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent');
    expect(error.message).toContain('DATABASE_URL must be a postgres:// URL');
    expect(error.message).toContain('S3_SECRET_ACCESS_KEY is required with S3_ACCESS_KEY_ID');
    expect(error.message).toContain('BODY_LIMIT must be a size such as 512kb or 1mb');
    expect(error.message).toContain('PGLITE_SHARED_BUFFERS must be a size such as 32MB');
    expect(error.message).toContain('PGLITE_FSYNC must be one of on, off');
  });

  it('when an invalid value is rejected, then the value itself is not echoed in the message', () => {
    const error = configError(() => loadConfig(platformConfigSchema, { SMTP_URL: 'user:secret-password@mail' }));
    expect(error.message).toBe('Invalid configuration: SMTP_URL must be an smtp:// or smtps:// URL');
  });

  it('when an error-reporting DSN is no DSN, then it is named without its value; a DSN and a sample rate are read', () => {
    const error = configError(() =>
      loadConfig(platformConfigSchema, {
        SENTRY_DSN: 'https://errors.example.com/1',
        SENTRY_BROWSER_DSN: 'key@errors.example.com',
        SENTRY_TRACES_SAMPLE_RATE: '2',
      }),
    );
    expect(error.message).toContain('SENTRY_DSN must be a Sentry DSN such as https://key@sentry.example.com/1');
    expect(error.message).toContain('SENTRY_BROWSER_DSN must be a Sentry DSN');
    expect(error.message).toContain('SENTRY_TRACES_SAMPLE_RATE must be at most 1');
    expect(error.message).not.toContain('errors.example.com');
    expect(
      loadConfig(platformConfigSchema, {
        SENTRY_DSN: 'https://key@errors.example.com/1',
        SENTRY_TRACES_SAMPLE_RATE: '0.25',
      }),
    ).toMatchObject({ SENTRY_DSN: 'https://key@errors.example.com/1', SENTRY_TRACES_SAMPLE_RATE: 0.25 });
  });

  it('when a variable is set to the empty string, then it counts as unset', () => {
    const config = loadConfig(platformConfigSchema, { DATABASE_URL: '', PORT: '' });
    expect(config.PORT).toBe(8080);
    expect(config).not.toHaveProperty('DATABASE_URL');
  });
});

describe('loadConfig with a service schema', () => {
  const serviceSchema = platformConfigSchema.extend({
    TOKEN_PRIVATE_KEY: z.string(),
    TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(900),
  });

  it('when a service key is missing, then it is reported as required together with platform problems', () => {
    const error = configError(() => loadConfig(serviceSchema, { PORT: 'x' }));
    expect(error.message).toBe('Invalid configuration: PORT must be a number; TOKEN_PRIVATE_KEY is required');
  });

  it('when every key is valid, then platform and service keys are both typed', () => {
    const config = loadConfig(serviceSchema, { TOKEN_PRIVATE_KEY: 'pem', TOKEN_TTL_SECONDS: '60' });
    const ttl: number = config.TOKEN_TTL_SECONDS;
    expect([config.PORT, config.TOKEN_PRIVATE_KEY, ttl]).toEqual([8080, 'pem', 60]);
  });

  it('when a service changes a platform default with safeExtend, then the S3 rule still applies', () => {
    const schema = platformConfigSchema.safeExtend({ PORT: z.coerce.number().int().default(8083) });
    expect(loadConfig(schema, {}).PORT).toBe(8083);
    expect(() => loadConfig(schema, { S3_BUCKET: 'files', S3_SECRET_ACCESS_KEY: 'secret' })).toThrow(
      'S3_ACCESS_KEY_ID is required with S3_SECRET_ACCESS_KEY',
    );
  });

  it('when S3_BUCKET is set without static keys, then the config is valid (the AWS default credential chain applies)', () => {
    const config = loadConfig(platformConfigSchema, { S3_BUCKET: 'files', S3_REGION: 'eu-west-1' });
    expect(config).toMatchObject({ S3_BUCKET: 'files' });
    expect(config.S3_ACCESS_KEY_ID).toBeUndefined();
  });
});
