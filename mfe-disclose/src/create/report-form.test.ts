import { MAX_FILE_SIZE as CONTRACT_MAX_FILE_SIZE } from '@whistle/contracts';
import { MAX_FILE_SIZE, emptyReportForm, encryptedFieldValues, isTooLarge, validateReport } from './report-form';
import { formatFileSize, formatInputDate, formatMessageTime } from '../review/format';
import { reviewDetails } from '../review/review-details';

describe('report form rules', () => {
  it('when nothing is filled, then categories, location and description are required; defaults follow the spec', () => {
    const form = emptyReportForm();
    expect(form).toMatchObject({
      report_channel: 'online',
      report_anonymously: false,
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

  it('when a file is over 25,000,000 bytes, then it is too large', () => {
    expect(MAX_FILE_SIZE).toBe(CONTRACT_MAX_FILE_SIZE);
    expect(isTooLarge({ size: 25_000_000 })).toBe(false);
    expect(isTooLarge({ size: 25_000_001 })).toBe(true);
  });
});

describe('review formatting', () => {
  it('when sizes are shown, then units step by 1000', () => {
    expect(formatFileSize(999, 'en')).toBe('999 B');
    expect(formatFileSize(1000, 'en')).toBe('1 kB');
    expect(formatFileSize(1500, 'en')).toBe('1.5 kB');
    expect(formatFileSize(25_000_000, 'en')).toBe('25 MB');
    expect(formatFileSize(1500, 'fr')).toBe('1,5 kB');
  });

  it('when dates are shown, then they are locale short dates on the typed day; messages show date then time', () => {
    expect(formatInputDate('2026-03-04', 'en-US')).toBe('3/4/26');
    expect(formatInputDate('2026-03-04', 'fr')).toBe('04/03/2026');
    const shown = formatMessageTime('2026-03-04T10:05:00Z', 'fr');
    expect(shown.indexOf('/2026')).toBeLessThan(shown.indexOf(':'));
  });

  it('when the review lists fields, then it follows the spec order and labels, hides empties and joins dates', () => {
    const rows = reviewDetails(
      {
        fields: {
          outcome: 'o',
          date: '2026-03-04',
          end_date: '2026-03-06',
          description: 'd',
          full_name: 'Ada',
          can_contact: 'no',
          people_involved: '',
        },
        incident: {
          uuid: 'u',
          display_report_number: 1,
          status: { name: 'NEW' },
          created: '2026-03-04T10:00:00Z',
          location: { uuid: 'l', name: 'Paris' },
          categories: [{ uuid: 'c', name: 'Fraud', parent_uuid: null }],
        },
      },
      'en-US',
      (value) => value.toUpperCase(),
    );
    expect(rows).toEqual([
      { name: 'full_name', value: 'Ada' },
      { name: 'can_contact', value: 'NO' },
      { name: 'category_uuid', value: 'Fraud' },
      { name: 'description', value: 'd' },
      { name: 'location', value: 'Paris' },
      { name: 'date', value: '3/4/26 - 3/6/26' },
      { name: 'outcome', value: 'o' },
    ]);
  });
});
