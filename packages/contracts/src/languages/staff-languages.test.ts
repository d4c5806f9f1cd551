import { defaultInviteeLanguage } from './staff-languages';

describe('an invitee’s mail language when the admin chose none', () => {
  it('is the company’s default when the mails are in it', () => {
    expect(defaultInviteeLanguage('de', 'fr')).toBe('de');
  });

  it('is the inviting admin’s own when the company’s default is a language the mails are not in', () => {
    expect(defaultInviteeLanguage('uk', 'pl')).toBe('pl');
  });

  it('is English when neither is a language of the mails', () => {
    expect(defaultInviteeLanguage('ar', 'tr')).toBe('en');
    expect(defaultInviteeLanguage(null, undefined)).toBe('en');
  });
});
