import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { waitUntilFound } from './wait-until-found';

export interface SmtpCatcher {
  readonly url: string;
  readonly mails: ParsedMail[];
  /** The first caught mail `predicate` accepts, waiting (20 s at most) for it to arrive; `what` names it in the failure. */
  waitFor(predicate: (mail: ParsedMail) => boolean, what?: string): Promise<ParsedMail>;
  close(): Promise<void>;
}

/** A real SMTP server on loopback keeping every message it receives, parsed. */
export async function startSmtpCatcher(): Promise<SmtpCatcher> {
  const mails: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => {
        mails.push(mail);
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waitFor: (predicate, what = 'matching') =>
      waitUntilFound(
        () => mails.find(predicate),
        () => `No ${what} e-mail arrived (${mails.length} caught)`,
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Addressee of a parsed mail, lower-cased. */
export function recipientOf(mail: ParsedMail): string {
  const to = Array.isArray(mail.to) ? mail.to[0] : mail.to;
  return (to?.value[0]?.address ?? '').toLowerCase();
}
