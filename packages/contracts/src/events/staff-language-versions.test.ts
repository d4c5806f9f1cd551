import { STAFF_LANGUAGE_CODES } from '../languages/staff-languages';
import { mailPreferencesSchema, userProfileCreateRequestSchema } from '../http/account';
import { parseEventPayload } from './catalogue';

const userId = '6f1c2a9e-4b1d-4c55-9a0e-1f7d2b3c4d5e';
const notifications = { new_incidents: true, assigned_to_an_incident: true, incident_updates: true, deadlines: true };
const user = { user_id: userId, email: 'ola@acme.test', full_name: 'Ola', roles: ['HANDLER'] };
const company = {
  company_id: userId,
  url_identifier: 'acme-ab12cd',
  name: 'Acme',
  country: 'PL',
  created_by: { user_id: userId, email: 'ola@acme.test' },
  categories: [],
  locations: [],
};

describe('the events that carry a staff language', () => {
  test.each(STAFF_LANGUAGE_CODES)(
    'when a member reads %s, then user.updated v2 and user.created v2 carry it',
    (language) => {
      expect(parseEventPayload('user.updated', 2, { ...user, language, notifications })).toMatchObject({ language });
      expect(parseEventPayload('user.created', 2, { ...user, language })).toMatchObject({ language });
      const founded = { ...company, created_by: { ...company.created_by, language } };
      expect(parseEventPayload('company.created', 2, founded)).toMatchObject({ created_by: { language } });
    },
  );

  test('when a language is none of the staff languages, then v2 refuses it, naming the field', () => {
    expect(() => parseEventPayload('user.updated', 2, { ...user, language: 'ar', notifications })).toThrow(/language/);
    expect(() => parseEventPayload('user.created', 2, user)).toThrow(/language/);
    const founded = { ...company, created_by: { ...company.created_by, language: 'xx' } };
    expect(() => parseEventPayload('company.created', 2, founded)).toThrow(/language/);
  });

  test('v1 stays as it was: user.updated v1 knows en and fr only, user.created and company.created v1 no language', () => {
    expect(parseEventPayload('user.updated', 1, { ...user, language: 'fr', notifications })).toMatchObject({
      language: 'fr',
    });
    expect(() => parseEventPayload('user.updated', 1, { ...user, language: 'pl', notifications })).toThrow(/language/);
    expect(parseEventPayload('user.created', 1, user)).not.toHaveProperty('language');
    expect(parseEventPayload('company.created', 1, company)).toEqual(company);
  });
});

describe('the account API’s staff language', () => {
  test.each(STAFF_LANGUAGE_CODES)('%s is accepted as a mail language and an invitee’s language', (language) => {
    expect(mailPreferencesSchema.parse({ language, notifications }).language).toBe(language);
    const invitation = { email: 'ola@acme.test', full_name: 'Ola', roles: ['HANDLER'], language };
    expect(userProfileCreateRequestSchema.parse(invitation).language).toBe(language);
  });

  test('another language is refused with "Unknown language" on the language field; an invitation may name none', () => {
    const refused = mailPreferencesSchema.safeParse({ language: 'ar', notifications });
    expect(refused.error?.issues).toEqual([
      expect.objectContaining({ path: ['language'], message: 'Unknown language' }),
    ]);
    const invitation = { email: 'ola@acme.test', full_name: 'Ola', roles: ['HANDLER'] };
    expect(userProfileCreateRequestSchema.safeParse({ ...invitation, language: 'pt-BR' }).error?.issues).toEqual([
      expect.objectContaining({ path: ['language'], message: 'Unknown language' }),
    ]);
    expect(userProfileCreateRequestSchema.parse(invitation)).not.toHaveProperty('language');
  });
});
