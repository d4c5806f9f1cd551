import { webcrypto } from 'node:crypto';
import { createCompanyCredentials, createIncidentCredentials, encryptReportFields } from '@whistle/crypto';
import { openReportFields, reportDetails } from './report-details';

describe('report details', () => {
  it('when the review lists fields, then it follows the spec order and labels, hides empties and joins dates in words', () => {
    const rows = reportDetails(
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
        location: { name: 'Paris' },
        categories: [{ name: 'Fraud' }],
      },
      'en',
      (value) => value.toUpperCase(),
    );
    expect(rows).toEqual([
      { name: 'full_name', value: 'Ada' },
      { name: 'can_contact', value: 'NO' },
      { name: 'category_uuid', value: 'Fraud' },
      { name: 'description', value: 'd' },
      { name: 'location', value: 'Paris' },
      { name: 'date', value: '4 March 2026 - 6 March 2026' },
      { name: 'outcome', value: 'o' },
    ]);
  });

  it('when a field does not open under its own name, then its row says it cannot be verified instead of a value', async () => {
    Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
    const company = await createCompanyCredentials();
    const { incident } = await createIncidentCredentials(company.credential.public_key);
    const [description, name, date] = await encryptReportFields(incident.publicKey, {
      description: 'Cash in envelopes',
      full_name: 'Ada',
      date: '2026-03-04',
    });
    // The server swapped the name and the description.
    const opened = await openReportFields(incident, [
      { name: 'description', value: name!.value },
      { name: 'full_name', value: description!.value },
      date!,
    ]);
    expect([...opened.unverifiable].sort()).toEqual(['description', 'full_name']);
    const rows = reportDetails(
      {
        ...opened,
        unverifiable: { names: opened.unverifiable, text: 'This text cannot be verified' },
        location: { name: 'Paris' },
        categories: [],
      },
      'en',
      (value) => value,
    );
    expect(rows).toEqual([
      { name: 'full_name', value: 'This text cannot be verified' },
      { name: 'description', value: 'This text cannot be verified' },
      { name: 'location', value: 'Paris' },
      { name: 'date', value: '4 March 2026' },
    ]);
  });
});
