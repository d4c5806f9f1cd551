import { emptyReportForm, encryptedFieldValues, validateReport } from './report-form';

describe('report form rules', () => {
  it('when nothing is filled, then categories, location and description are required; defaults follow the spec, anonymous', () => {
    const form = emptyReportForm();
    expect(form).toMatchObject({
      report_channel: 'online',
      report_anonymously: true,
      can_contact: 'yes',
      previous_report: 'no',
    });
    expect(validateReport(form)).toEqual({ category_uuids: true, location_uuid: true, description: true });
    expect(validateReport({ ...form, category_uuids: ['c'], location_uuid: 'l', description: '  x ' })).toEqual({});
    expect(validateReport({ ...form, category_uuids: ['c'], location_uuid: 'l', description: '   ' })).toEqual({
      description: true,
    });
  });

  it('when reporting anonymously, then identity inputs typed before are not sent', () => {
    const form = {
      ...emptyReportForm(),
      report_anonymously: false,
      full_name: 'Ada',
      email: 'ada@example.com',
      phone_number_code: '+33',
      phone_number: '612',
      description: 'what happened',
      previous_report_details: 'typed, then answered no',
    };
    expect(encryptedFieldValues(form)).toEqual({
      full_name: 'Ada',
      email: 'ada@example.com',
      phone_number_code: '+33',
      phone_number: '612',
      description: 'what happened',
      can_contact: 'yes',
      previous_report: 'no',
    });
    expect(encryptedFieldValues({ ...form, report_anonymously: true })).toEqual({
      description: 'what happened',
      can_contact: 'yes',
      previous_report: 'no',
    });
    expect(encryptedFieldValues({ ...form, previous_report: 'yes' })).toMatchObject({
      previous_report: 'yes',
      previous_report_details: 'typed, then answered no',
    });
    expect(encryptedFieldValues({ ...form, phone_number: '' })).not.toHaveProperty('phone_number_code');
  });
});
