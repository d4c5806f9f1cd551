import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { loadConfig, platformConfigSchema } from '@whistle/service-kit';
import { createRecordingLogger } from '@whistle/service-kit/testing';
import type { MailMessage } from './mailer';
import { mailerPort } from './mailer-port';
import { openMailer } from './open-mailer';

const from = 'Whistle <no-reply@whistle.test>';
const message: MailMessage = {
  to: 'handler@acme.test',
  subject: 'New report received',
  text: 'A new report is waiting: https://whistle.test/company/incidents/42',
  html: '<p>A new report is waiting.</p>',
};

const addresses = (field: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((group) => group.value.map((entry) => entry.address));

function expectParsed(parsed: ParsedMail) {
  expect(parsed.subject).toBe('New report received');
  expect(addresses(parsed.to)).toEqual(['handler@acme.test']);
  expect(addresses(parsed.from)).toEqual(['no-reply@whistle.test']);
  expect(parsed.text?.trim()).toBe(message.text);
  expect(parsed.html).toContain('A new report is waiting.');
  expect(parsed.headers.get('auto-submitted')).toBe('auto-generated');
}

describe('FolderMailer', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'mail-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('when a message is sent, then one parseable .eml file with its headers and body is written, and the log names only the file', async () => {
    const logger = createRecordingLogger();
    const mailer = openMailer({ DATA_DIR: dataDir, MAIL_FROM: from }, logger);
    expect(mailer.kind).toBe('folder');
    await mailer.send(message);
    await mailer.close();

    const files = await readdir(path.join(dataDir, 'mail'));
    expect(files).toEqual([expect.stringMatching(/\.eml$/)]);
    const raw = await readFile(path.join(dataDir, 'mail', files[0]!));
    expect(raw.toString('latin1')).toContain('\r\n');
    expectParsed(await simpleParser(raw));
    const log = JSON.stringify(logger.entries);
    expect(log).toContain(files[0]);
    expect(log).not.toContain('incidents/42');
  });

  it('when two messages are sent, then two distinct files exist', async () => {
    const mailer = openMailer({ DATA_DIR: dataDir, MAIL_FROM: from });
    await Promise.all([mailer.send(message), mailer.send({ ...message, subject: 'Second' })]);
    const subjects = await Promise.all(
      (await readdir(path.join(dataDir, 'mail'))).map(
        async (file) => (await simpleParser(await readFile(path.join(dataDir, 'mail', file)))).subject,
      ),
    );
    expect(subjects.sort()).toEqual(['New report received', 'Second']);
  });
});

describe('SmtpMailer', () => {
  const received: { envelopeTo: string[]; parsed: ParsedMail }[] = [];
  let server: SMTPServer;
  let port: number;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      // No certificate in the test server: plain SMTP on loopback.
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        simpleParser(stream)
          .then((parsed) => {
            received.push({ envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address), parsed });
            callback();
          })
          .catch(callback);
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('when a message is sent, then the SMTP server receives it for the recipient with the right subject and body', async () => {
    const mailer = openMailer({ DATA_DIR: '/nonexistent', SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: from });
    expect(mailer.kind).toBe('smtp');
    try {
      await mailer.send(message);
    } finally {
      await mailer.close();
    }
    expect(received).toHaveLength(1);
    expect(received[0]!.envelopeTo).toEqual(['handler@acme.test']);
    expectParsed(received[0]!.parsed);
  });

  it('when SMTP_URL is in the platform configuration, then the port opens the SMTP adapter, which delivers', async () => {
    const config = loadConfig(platformConfigSchema, { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: from });
    const mailer = await mailerPort.open(config, createRecordingLogger());
    expect([mailerPort.name, mailer.kind]).toEqual(['mail', 'smtp']);
    try {
      await mailer.send({ ...message, to: 'port@acme.test' });
    } finally {
      await mailer.close();
    }
    expect(received.map((each) => each.envelopeTo)).toContainEqual(['port@acme.test']);
  });

  it('when the SMTP server is unreachable, then send rejects', async () => {
    const mailer = openMailer({ DATA_DIR: '/nonexistent', SMTP_URL: 'smtp://127.0.0.1:1', MAIL_FROM: from });
    try {
      await expect(mailer.send(message)).rejects.toThrow();
    } finally {
      await mailer.close();
    }
  });
});
