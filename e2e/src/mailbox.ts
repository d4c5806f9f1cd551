import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';

export interface ReceivedMail {
  subject: string;
  text: string;
}

/** Where a platform's mail can be read: the first mail to `to` whose subject matches, waiting for it. */
export type Mailbox = (to: string, subject: RegExp) => Promise<ReceivedMail>;

/**
 * The e-mails the standalone platform wrote as .eml files under `${dataDir}/mail`, waiting for one
 * to `to` whose subject matches. Mail goes out after the API answers, hence the polling.
 */
export async function waitForMail(
  dataDir: string,
  to: string,
  subject: RegExp,
  timeoutMs = 15_000,
): Promise<ReceivedMail> {
  const folder = path.join(dataDir, 'mail');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const names = await readdir(folder).catch(() => [] as string[]);
    for (const name of names.filter((file) => file.endsWith('.eml')).sort()) {
      const mail = await simpleParser(await readFile(path.join(folder, name)));
      const recipients = [mail.to]
        .flat()
        .flatMap((address) => address?.value ?? [])
        .map((address) => address.address?.toLowerCase());
      if (recipients.includes(to.toLowerCase()) && subject.test(mail.subject ?? ''))
        return { subject: mail.subject ?? '', text: mail.text ?? '' };
    }
    if (Date.now() > deadline) throw new Error(`No mail to ${to} matching ${subject} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The set-password link of a mail: its token in the query for a reset (spec §2), in the fragment for an invitation. */
export function passwordLinkIn(mail: ReceivedMail): string {
  const link = /https?:\/\/\S+\/company\/password\/change[?#]token=[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`No password link in "${mail.subject}"`);
  return link;
}

/** The token of a mail's set-password link. */
export function passwordTokenIn(mail: ReceivedMail): string {
  return /[?#]token=([A-Za-z0-9_-]+)/.exec(passwordLinkIn(mail))![1]!;
}

/** The token of an onboarding mail's confirmation link (it rides in the link's fragment). */
export function confirmationTokenIn(mail: ReceivedMail): string {
  const token = /\/company\/onboarding\/confirm#token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  if (!token) throw new Error(`No confirmation link in "${mail.subject}"`);
  return token;
}

/** The confirmation link itself, for a browser to follow. */
export function confirmationLinkIn(mail: ReceivedMail): string {
  const link = /https?:\/\/\S+\/company\/onboarding\/confirm#token=[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`No confirmation link in "${mail.subject}"`);
  return link;
}

/** The subject of the mail onboarding sends the first admin. */
export const CONFIRMATION_SUBJECT = /^Confirm your company/;
