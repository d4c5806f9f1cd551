import type { MailMessage } from '@whistle/mailer';
import { accountMailTexts } from './account-mail-texts';

/** The only e-mails carrying a secret: each holds one one-time link and nothing else confidential. */
export const accountMails = {
  invitation(to: string, fullName: string, link: string): MailMessage {
    return {
      to,
      subject: 'You have been invited to Whistle',
      text: `Hello ${fullName},\n\nyou have been invited to your company's Whistle account. Choose your password here (the link works once, for 7 days):\n\n${link}\n\nIf you did not expect this, ignore this e-mail.\n`,
    };
  },
  /** The only text from the registration is the company's name: the address may belong to someone else. */
  companyConfirmation(to: string, companyName: string, link: string): MailMessage {
    return {
      to,
      subject: 'Confirm your company’s Whistle account',
      text: `Hello,\n\nsomeone asked to open a Whistle whistleblowing account for "${companyName}" with this e-mail address, as its first administrator. Confirm that it was you here (the link works once, for 24 hours):\n\n${link}\n\nUntil it is confirmed, the account does not exist: its disclosure link and its sign-in do not work.\n\nIf it was not you, ignore this e-mail: nothing is created, and the request is deleted after 24 hours.\n`,
    };
  },
  /** In the account's mail language (the staff languages; English else). */
  passwordReset(to: string, link: string, language?: string): MailMessage {
    const { subject, text } = accountMailTexts(language).passwordReset;
    return { to, subject, text: text(link) };
  },
  /** Wrong passwords in a row: the owner hears of it; nothing is locked (the guesser's address is slowed down). */
  failedSignIns(to: string, count: number, language?: string): MailMessage {
    const { subject, text } = accountMailTexts(language).failedSignIns;
    return { to, subject, text: text(count) };
  },
};
