import { createLogger, type LogLevel } from './logger';

function capture(level: LogLevel = 'debug') {
  const lines: string[] = [];
  const logger = createLogger({ name: 'test', level, destination: { write: (line: string) => void lines.push(line) } });
  const entries = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { logger, lines, entries };
}

describe('createLogger', () => {
  it('when secrets are logged at the top level or one level down, then they are censored and the rest is kept', () => {
    const { logger, lines, entries } = capture();
    logger.info(
      {
        req: {
          method: 'POST',
          headers: { authorization: 'Bearer eyJsecret', cookie: 'sid=secret', accept: 'application/json' },
        },
        password: 'hunter2',
        body: { passphrase: 'correct horse', challenge_code: '123456', url_identifier: 'acme' },
        credential: { aes_encrypted_private_key: 'v1.abc', aes_salt: 'salt' },
        incident: {
          company_encrypted_passphrase: 'v1.cep',
          discloser_encrypted_passphrase: 'v1.dep',
          discloser_auth_token: 'dat-secret',
          fields: ['v1.field'],
          content: 'v1.content',
          status: 'NEW',
        },
        user: { token: 'jwt', full_name: 'kept' },
        config: { SMTP_URL: 'smtp://user:pw@host', S3_SECRET_ACCESS_KEY: 's3secret', PORT: 8080 },
      },
      'request',
    );

    const [entry] = entries();
    expect(entry).toMatchObject({
      msg: 'request',
      level: 'info',
      name: 'test',
      req: {
        method: 'POST',
        headers: { authorization: '[redacted]', cookie: '[redacted]', accept: 'application/json' },
      },
      password: '[redacted]',
      body: '[redacted]',
      credential: '[redacted]',
      incident: {
        company_encrypted_passphrase: '[redacted]',
        discloser_encrypted_passphrase: '[redacted]',
        discloser_auth_token: '[redacted]',
        fields: '[redacted]',
        content: '[redacted]',
        status: 'NEW',
      },
      user: { token: '[redacted]', full_name: 'kept' },
      config: { SMTP_URL: '[redacted]', S3_SECRET_ACCESS_KEY: '[redacted]', PORT: 8080 },
    });
    for (const secret of [
      'eyJsecret',
      'sid=secret',
      'hunter2',
      'correct horse',
      '123456',
      'v1.abc',
      'v1.cep',
      'v1.dep',
      'dat-secret',
      'v1.field',
      'v1.content',
      'jwt',
      'user:pw',
      's3secret',
    ]) {
      expect(lines.join('')).not.toContain(secret);
    }
  });

  it('when a child logger logs, then its bindings are included and redaction still applies', () => {
    const { logger, entries } = capture();
    logger.child({ service: 'auth' }).warn({ token: 'abc' }, 'careful');
    expect(entries()).toEqual([
      expect.objectContaining({ service: 'auth', token: '[redacted]', msg: 'careful', level: 'warn' }),
    ]);
  });

  it('when a child is made without redaction, then its entries are written as given, with the bindings of its parents', () => {
    const { logger, entries } = capture();
    logger
      .child({ service: 'auth' })
      .child({}, { redact: false })
      .info({ method: 'GET', route: '/api/x/:id', status: 200, token: 'not a secret here' }, 'request');
    logger.child({}, { redact: false }).child({ part: 'x' }).warn({ token: 'abc' }, 'unredacted grandchild');
    logger.info({ token: 'abc' }, 'the parent still redacts');
    expect(entries()).toEqual([
      expect.objectContaining({ service: 'auth', method: 'GET', route: '/api/x/:id', token: 'not a secret here' }),
      expect.objectContaining({ part: 'x', token: 'abc' }),
      expect.objectContaining({ token: '[redacted]', msg: 'the parent still redacts' }),
    ]);
  });

  it('when the level is warn, then info and debug entries are dropped', () => {
    const { logger, entries } = capture('warn');
    logger.debug('d');
    logger.info('i');
    logger.error('e');
    expect(entries().map((entry) => entry.msg)).toEqual(['e']);
  });

  it('when an error is logged, then its message and stack are kept', () => {
    const { logger, entries } = capture();
    logger.error({ err: new Error('boom') }, 'failed');
    expect(entries()[0]).toMatchObject({ err: { message: 'boom', stack: expect.stringContaining('Error: boom') } });
  });

  it('when a database error is logged, then its code and constraint are kept but never the statement, its parameters or the values it quotes', () => {
    const { logger, lines } = capture();
    const duplicate = Object.assign(new Error('duplicate key value violates unique constraint "user_email_key"'), {
      code: '23505',
      constraint: 'user_email_key',
      table: 'user_profile',
      detail: 'Key (email)=(ada@acme.example) already exists.',
      query: 'insert into auth.user_profile (email, password_hash) values ($1, $2)',
      params: ['ada@acme.example', '$argon2id$v=19$secret-hash'],
    });
    const badInput = Object.assign(
      new Error('invalid input syntax for type timestamp with time zone: "canary-value"'),
      {
        code: '22007',
        where: "unnamed portal parameter $1 = 'canary-value'",
      },
    );
    logger.error({ err: duplicate }, 'request failed');
    logger.error({ err: new Error('wrapped', { cause: badInput }) }, 'request failed');

    const output = lines.join('\n');
    for (const value of ['ada@acme.example', 'secret-hash', 'password_hash', 'canary-value']) {
      expect(output).not.toContain(value);
    }
    const [first, second] = lines.map((line) => JSON.parse(line) as { err: Record<string, unknown> });
    expect(first!.err).toMatchObject({ code: '23505', constraint: 'user_email_key', table: 'user_profile' });
    expect(second!.err.message).toBe('wrapped: invalid input syntax for type timestamp with time zone: "[redacted]"');
  });
});
