import type { EventPayload } from '@whistle/contracts';
import type { MailMessage } from '@whistle/mailer';

/** The e-mail the first admin gets: the employees' link and the sign-in link. Ids and names only. */
export function welcomeMail(company: EventPayload<'company.created'>, publicUrl: string): MailMessage {
  const discloseLink = new URL(`/disclose/${company.url_identifier}`, publicUrl).toString();
  const loginLink = new URL('/company/login', publicUrl).toString();
  return {
    to: company.created_by.email,
    subject: `Your Whistle account for ${company.name} is ready`,
    text: [
      'Hello,',
      '',
      `The whistleblowing channel of ${company.name} is ready.`,
      '',
      'Share this link with your employees so they can report safely, anonymously if they wish:',
      discloseLink,
      '',
      'Sign in to manage reports:',
      loginLink,
      '',
      'Whistle',
    ].join('\n'),
  };
}
