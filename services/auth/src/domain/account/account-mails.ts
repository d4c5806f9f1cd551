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
  passwordReset(to: string, link: string): MailMessage {
    return {
      to,
      subject: 'Reset your Whistle password',
      text: `Someone asked to reset the password of this Whistle account. Choose a new password here (the link works once, for 1 hour):\n\n${link}\n\nIf it was not you, ignore this e-mail: your password stays as it is.\n`,
    };
  },
  lockout(to: string, minutes: number): MailMessage {
    return {
      to,
      subject: 'Your Whistle account was locked',
      text: `Too many wrong passwords were entered for this Whistle account, so signing in is blocked for ${minutes} minutes.\n\nIf this was not you, someone may be guessing your password: reset it from the sign-in page once the lock ends, and tell your company admin.\n`,
    };
  },
};
