import { reportDetails } from './report-details';

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
});
