import type { MailMessage } from '@whistle/mailer';

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
  passwordReset(to: string, link: string): MailMessage {
    return {
      to,
      subject: 'Reset your Whistle password',
      text: `Someone asked to reset the password of this Whistle account. Choose a new password here (the link works once, for 1 hour):\n\n${link}\n\nIf it was not you, ignore this e-mail: your password stays as it is.\n`,
    };
  },
  /** Wrong passwords in a row: the owner hears of it; nothing is locked (the guesser's address is slowed down). */
  failedSignIns(to: string, count: number): MailMessage {
    return {
      to,
      subject: 'Wrong passwords were entered for your Whistle account',
      text: `${count} wrong passwords in a row were entered for this Whistle account. You can still sign in as usual: only the address they came from is slowed down.\n\nIf this was not you, someone may be guessing your password: choose a strong one (or reset it from the sign-in page), turn on multi-factor authentication in your account settings, and tell your company admin.\n`,
    };
  },
};
