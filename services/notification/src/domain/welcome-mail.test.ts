import { STAFF_LANGUAGE_CODES, type EventPayload } from '@whistle/contracts';
import { welcomeMail } from './welcome-mail';
import { WELCOME_MAIL_TEXTS } from './welcome-mail-texts';

const company = (language?: string) =>
  ({
    company_id: '6f1c2a9e-4b1d-4c55-9a0e-1f7d2b3c4d5e',
    url_identifier: 'acme-ab12cd',
    name: 'Acme',
    country: 'FR',
    created_by: {
      user_id: '7f1c2a9e-4b1d-4c55-9a0e-1f7d2b3c4d5e',
      email: 'ada@acme.test',
      ...(language && { language }),
    },
    categories: [],
    locations: [],
  }) as EventPayload<'company.created', 2>;

describe('the welcome mail in the staff languages', () => {
  test('it is written in each staff language, no other', () => {
    expect(Object.keys(WELCOME_MAIL_TEXTS).sort()).toEqual([...STAFF_LANGUAGE_CODES].sort());
  });

  test.each(STAFF_LANGUAGE_CODES.filter((language) => language !== 'en'))(
    'when the company signed up on a page in %s, then the welcome mail is in it, with the name and both links',
    (language) => {
      const english = welcomeMail(company('en'), 'https://whistle.test');
      const mail = welcomeMail(company(language), 'https://whistle.test');
      expect(mail.to).toBe('ada@acme.test');
      expect(mail.subject).not.toBe(english.subject);
      expect(mail.subject).toContain('Acme');
      const lines = mail.text.split('\n');
      expect(lines).toContain('https://whistle.test/disclose/acme-ab12cd');
      expect(lines).toContain('https://whistle.test/company/login');
      // Every line of text differs from English; the links and the signature stay.
      english.text.split('\n').forEach((line, index) => {
        if (line && !line.startsWith('https://') && line !== 'Whistle') expect(lines[index]).not.toBe(line);
      });
    },
  );

  test('when the event carries no language (v1) or one the mails are not in, then the welcome mail is in English', () => {
    const v1 = { ...company(), created_by: { user_id: company().created_by.user_id, email: 'ada@acme.test' } };
    expect(welcomeMail(v1, 'https://whistle.test').subject).toBe('Your Whistle account for Acme is ready');
    expect(welcomeMail(company('ar'), 'https://whistle.test').subject).toBe('Your Whistle account for Acme is ready');
  });
});
