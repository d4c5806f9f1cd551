import { ACCOUNT_MAIL_TEXTS } from './account-mail-texts';
import { accountMails } from './account-mails';
import { INVITATION_MAIL_TEXTS } from './invitation-mail-texts';

const LINK = 'https://whistle.test/company/password/change?token=abc';
const STAFF_LANGUAGES = ['en', 'fr', 'de', 'es', 'it', 'nl', 'pl', 'pt'];

describe('account mails in the staff languages', () => {
  test('the reset and failed-sign-in mails are written in each staff language, no other', () => {
    expect(Object.keys(ACCOUNT_MAIL_TEXTS).sort()).toEqual([...STAFF_LANGUAGES].sort());
  });

  test.each(STAFF_LANGUAGES.filter((language) => language !== 'en'))(
    'when the account reads %s, then its reset and failed-sign-in mails are in it, with the link and the count',
    (language) => {
      const english = [accountMails.passwordReset('a@acme.test', LINK), accountMails.failedSignIns('a@acme.test', 5)];
      const mails = [
        accountMails.passwordReset('a@acme.test', LINK, language),
        accountMails.failedSignIns('a@acme.test', 5, language),
      ];
      mails.forEach((mail, index) => {
        expect(mail.to).toBe('a@acme.test');
        expect(mail.subject).not.toBe(english[index].subject);
        expect(mail.text).not.toBe(english[index].text);
        expect(mail.text).not.toMatch(/undefined|\$\{/);
      });
      // The link alone on its line, so a mail client makes it clickable whole.
      expect(mails[0].text.split('\n')).toContain(LINK);
      expect(mails[1].text).toContain('5');
    },
  );

  test('when the account reads a language the mails are not written in, then they are in English', () => {
    expect(accountMails.passwordReset('a@acme.test', LINK, 'ar').subject).toBe('Reset your Whistle password');
    expect(accountMails.failedSignIns('a@acme.test', 5).subject).toBe(
      'Wrong passwords were entered for your Whistle account',
    );
  });

  test('the invitation and the company confirmation are written in each staff language, no other', () => {
    expect(Object.keys(INVITATION_MAIL_TEXTS).sort()).toEqual([...STAFF_LANGUAGES].sort());
  });

  test.each(STAFF_LANGUAGES.filter((language) => language !== 'en'))(
    'when the invitee or the founding admin reads %s, then the invitation and the confirmation are in it, with the link and the name',
    (language) => {
      const english = [
        accountMails.invitation('a@acme.test', 'Ada Lovelace', LINK),
        accountMails.companyConfirmation('a@acme.test', 'Acme', LINK),
      ];
      const mails = [
        accountMails.invitation('a@acme.test', 'Ada Lovelace', LINK, language),
        accountMails.companyConfirmation('a@acme.test', 'Acme', LINK, language),
      ];
      mails.forEach((mail, index) => {
        expect(mail.to).toBe('a@acme.test');
        expect(mail.subject).not.toBe(english[index].subject);
        expect(mail.text).not.toBe(english[index].text);
        expect(mail.text).not.toMatch(/undefined|\$\{/);
        expect(mail.text.split('\n')).toContain(LINK);
      });
      expect(mails[0].text).toContain('Ada Lovelace');
      expect(mails[1].text).toContain('Acme');
    },
  );

  test('when the language is none of the staff languages, then the invitation and the confirmation are in English', () => {
    expect(accountMails.invitation('a@acme.test', 'Ada', LINK, 'ar').subject).toBe('You have been invited to Whistle');
    expect(accountMails.companyConfirmation('a@acme.test', 'Acme', LINK, 'toString').subject).toBe(
      'Confirm your company’s Whistle account',
    );
    expect(accountMails.companyConfirmation('a@acme.test', 'Acme', LINK).subject).toBe(
      'Confirm your company’s Whistle account',
    );
  });
});
