import { useState } from 'react';
import type { i18n } from 'i18next';
import { fireEvent, screen } from '@testing-library/react';
import { initTestI18n } from '../../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../../test/render';
import { IncidentFields, type IncidentFieldValues, type IncidentFieldWords } from './index';

let english: i18n;
beforeAll(async () => {
  english = await initTestI18n<i18n>('en');
});

const words: IncidentFieldWords = {
  category_uuids: 'What happened?',
  description: 'Describe it',
  location_uuid: 'Where?',
  locationPlaceholder: 'Pick one',
  location_detail: 'Where exactly?',
  date: 'From',
  end_date: 'To',
  people_involved: 'Who?',
  outcome: 'What do you expect?',
};
const company = {
  categories: [{ uuid: 'c0000000-0000-4000-8000-000000000001', name: 'Fraud', parent_uuid: null }],
  locations: [{ uuid: 'd0000000-0000-4000-8000-000000000001', name: 'Head office' }],
};
const empty: IncidentFieldValues = {
  category_uuids: [],
  description: '',
  location_uuid: '',
  location_detail: '',
  date: '',
  end_date: '',
  people_involved: '',
  outcome: '',
};

/** A form holding the values, as both report forms do, with what it last held. */
function Form({ seen, missing }: { seen: (values: IncidentFieldValues) => void; missing: string[] }) {
  const [values, setValues] = useState(empty);
  seen(values);
  return (
    <IncidentFields
      values={values}
      set={(name, value) => setValues((current) => ({ ...current, [name]: value }))}
      company={company}
      words={words}
      required={(name) => ({
        id: `field-${name}`,
        error: missing.includes(name) ? 'This field is required' : undefined,
        requiredMark: 'required',
      })}
    />
  );
}

it('when each field is filled, then the form holds it under its report field name, in the form’s own words', () => {
  let last = empty;
  renderWithI18n(<Form seen={(values) => (last = values)} missing={[]} />, english);
  fireEvent.click(screen.getByRole('checkbox', { name: 'Fraud' }));
  fireEvent.change(screen.getByRole('textbox', { name: /Describe it/ }), { target: { value: 'Paid twice' } });
  fireEvent.change(screen.getByRole('combobox', { name: /Where\?/ }), {
    target: { value: company.locations[0]!.uuid },
  });
  fireEvent.change(screen.getByRole('textbox', { name: 'Where exactly?' }), { target: { value: 'Floor 3' } });
  fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-01' } });
  fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-03-09' } });
  fireEvent.change(screen.getByRole('textbox', { name: 'Who?' }), { target: { value: 'The accountant' } });
  fireEvent.change(screen.getByRole('textbox', { name: 'What do you expect?' }), { target: { value: 'An audit' } });
  expect(last).toEqual({
    category_uuids: [company.categories[0]!.uuid],
    description: 'Paid twice',
    location_uuid: company.locations[0]!.uuid,
    location_detail: 'Floor 3',
    date: '2026-03-01',
    end_date: '2026-03-09',
    people_involved: 'The accountant',
    outcome: 'An audit',
  });
  // The end cannot be chosen before the start.
  expect(screen.getByLabelText('To')).toHaveAttribute('min', '2026-03-01');
});

it('when a required field is missing, then its error is bound to it and it carries the id the summary links to', () => {
  renderWithI18n(<Form seen={() => undefined} missing={['description']} />, english);
  const description = screen.getByRole('textbox', { name: /Describe it/ });
  expect(description).toHaveAttribute('id', 'field-description');
  expect(description).toHaveAttribute('aria-invalid', 'true');
  expect(description).toHaveAccessibleDescription('This field is required');
  expect(screen.getByRole('combobox', { name: /Where\?/ })).not.toHaveAttribute('aria-invalid');
  expect(screen.getByRole('option', { name: 'Pick one' })).toBeInTheDocument();
});
