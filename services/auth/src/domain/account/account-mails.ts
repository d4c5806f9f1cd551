import type { MailMessage } from '@whistle/mailer';
import { accountMailTexts } from './account-mail-texts';
import { invitationMailTexts } from './invitation-mail-texts';

/** The only e-mails carrying a secret: each holds one one-time link and nothing else confidential. */
export const accountMails = {
  /** In the invitee's language, which the admin chose (English for another). */
  invitation(to: string, fullName: string, link: string, language?: string): MailMessage {
    const { subject, text } = invitationMailTexts(language).invitation;
    return { to, subject, text: text(fullName, link) };
  },
  /**
   * In the language of the page the company signed up on. The only text from the registration is the company's
   * name: the address may belong to someone else.
   */
  companyConfirmation(to: string, companyName: string, link: string, language?: string): MailMessage {
    const { subject, text } = invitationMailTexts(language).companyConfirmation;
    return { to, subject, text: text(companyName, link) };
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
