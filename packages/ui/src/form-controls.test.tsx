import { useState } from 'react';
import type { i18n } from 'i18next';
import { fireEvent, screen, within } from '@testing-library/react';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../test/render';
import {
  CategoryPicker,
  Choice,
  ErrorSummary,
  SelectField,
  STAFF_LANGUAGES,
  TextArea,
  TextField,
  languageOptions,
  type CategoryOption,
} from './index';

let english: i18n;
beforeAll(async () => {
  english = await initTestI18n<i18n>('en');
});

describe('text area', () => {
  it('when it has an error, then the error is bound to its labelled control; otherwise it is not invalid', () => {
    const onChange = jest.fn();
    const { rerender } = renderWithI18n(
      <TextArea name="description" label="Description" value="" onChange={onChange} error="This field is required" />,
      english,
    );
    const area = screen.getByRole('textbox', { name: 'Description' });
    expect(area).toHaveAttribute('name', 'description');
    expect(area).toHaveAttribute('rows', '5');
    expect(area).toHaveAttribute('aria-invalid', 'true');
    expect(area).toHaveAccessibleDescription('This field is required');
    fireEvent.change(area, { target: { value: 'It happened' } });
    expect(onChange).toHaveBeenCalledTimes(1);
    rerender(<TextArea name="description" label="Description" rows={3} defaultValue="x" />);
    expect(screen.getByRole('textbox', { name: 'Description' })).not.toHaveAttribute('aria-invalid');
    expect(screen.getByRole('textbox', { name: 'Description' })).toHaveAttribute('rows', '3');
  });
});

describe('choice', () => {
  it('when an option is picked, then its value is reported and the group is one named radio group', () => {
    function YesNo() {
      const [value, setValue] = useState<'yes' | 'no'>('yes');
      return (
        <Choice
          name="can_contact"
          legend="May we contact you?"
          options={[
            { value: 'yes', label: 'Yes' },
            { value: 'no', label: 'No' },
          ]}
          value={value}
          onChange={setValue}
          description="Through the status page"
        />
      );
    }
    renderWithI18n(<YesNo />, english);
    const group = screen.getByRole('group', { name: 'May we contact you?' });
    expect(group).toHaveAccessibleDescription('Through the status page');
    expect(within(group).getByRole('radio', { name: 'Yes' })).toBeChecked();
    fireEvent.click(within(group).getByRole('radio', { name: 'No' }));
    expect(within(group).getByRole('radio', { name: 'No' })).toBeChecked();
    expect(within(group).getByRole('radio', { name: 'Yes' })).not.toBeChecked();
    expect(
      within(group)
        .getAllByRole('radio')
        .map((radio) => radio.getAttribute('name')),
    ).toEqual(['can_contact', 'can_contact']);
  });
});

describe('category picker', () => {
  const categories: CategoryOption[] = [
    { uuid: 'fraud', name: 'Fraud', parent_uuid: null },
    { uuid: 'invoices', name: 'Fake invoices', parent_uuid: 'fraud' },
    { uuid: 'orphan', name: 'Harassment', parent_uuid: 'inactive-parent' },
  ];

  it('when categories have parents, then sub-categories are listed under theirs and orphans at the top', () => {
    renderWithI18n(
      <CategoryPicker legend="Incident" categories={categories} selected={[]} onChange={jest.fn()} />,
      english,
    );
    const fraud = screen.getByRole('checkbox', { name: 'Fraud' }).closest('li')!;
    expect(within(fraud).getByRole('checkbox', { name: 'Fake invoices' })).toHaveAttribute('name', 'category_uuids');
    const topLevel = screen.getByRole('group', { name: 'Incident' }).querySelector('ul')!;
    expect(Array.from(topLevel.children).map((item) => item.querySelector('label')?.textContent?.trim())).toEqual([
      'Fraud',
      'Harassment',
    ]);
  });

  it('when boxes are ticked and cleared, then the new selection is reported; an error marks the group', () => {
    function Picker() {
      const [selected, setSelected] = useState<string[]>(['fraud']);
      return (
        <CategoryPicker
          legend="Incident"
          categories={categories}
          selected={selected}
          onChange={setSelected}
          error={selected.length === 0 ? 'This field is required' : undefined}
        />
      );
    }
    renderWithI18n(<Picker />, english);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Fake invoices' }));
    expect(screen.getByRole('checkbox', { name: 'Fraud' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Fake invoices' })).toBeChecked();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Fraud' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Fake invoices' }));
    const group = screen.getByRole('group', { name: 'Incident' });
    expect(group).toHaveAttribute('aria-invalid', 'true');
    expect(group).toHaveAccessibleDescription('This field is required');
  });
});

describe('required fields', () => {
  it('when a field is marked required, then its label says so and its control is aria-required', () => {
    renderWithI18n(
      <>
        <TextField name="full_name" label="Name" />
        <TextArea name="description" label="Description" requiredMark="required" />
        <SelectField name="location_uuid" label="Location" options={[]} requiredMark="required" />
        <CategoryPicker legend="Incident" categories={[]} selected={[]} onChange={jest.fn()} requiredMark="required" />
      </>,
      english,
    );
    expect(screen.getByRole('textbox', { name: 'Name' })).not.toHaveAttribute('aria-required');
    expect(screen.getByRole('textbox', { name: 'Description (required)' })).toHaveAttribute('aria-required', 'true');
    expect(screen.getByRole('combobox', { name: 'Location (required)' })).toHaveAttribute('aria-required', 'true');
    // A group cannot be aria-required: its name says it.
    expect(screen.getByRole('group', { name: 'Incident (required)' })).not.toHaveAttribute('aria-required');
  });
});

describe('language select', () => {
  it('when the staff languages are offered, then each is named in itself and marked with its language', () => {
    renderWithI18n(
      <SelectField name="language" label="Language" options={languageOptions(STAFF_LANGUAGES)} />,
      english,
    );
    const options = within(screen.getByRole('combobox', { name: 'Language' })).getAllByRole('option');
    expect(options.map((option) => [option.getAttribute('value'), option.textContent, option.lang])).toEqual([
      ['en', 'English', 'en'],
      ['fr', 'Français', 'fr'],
      ['de', 'Deutsch', 'de'],
      ['es', 'Español', 'es'],
      ['it', 'Italiano', 'it'],
      ['nl', 'Nederlands', 'nl'],
      ['pl', 'Polski', 'pl'],
      ['pt', 'Português', 'pt'],
    ]);
  });
});

describe('error summary', () => {
  it('when an entry is followed, then its field gets the focus, in view, and the URL stays', () => {
    const categories: CategoryOption[] = [{ uuid: 'fraud', name: 'Fraud', parent_uuid: null }];
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
    const { rerender } = renderWithI18n(
      <form>
        <CategoryPicker id="categories" legend="Incident" categories={categories} selected={[]} onChange={jest.fn()} />
        <TextArea id="description" name="description" label="Description" />
        <ErrorSummary
          title="Please complete"
          errors={[
            { target: 'categories', text: 'Incident: This field is required' },
            { target: 'description', text: 'Description: This field is required' },
          ]}
        />
      </form>,
      english,
    );
    const summary = screen.getByRole('region', { name: 'Please complete' });
    fireEvent.click(within(summary).getByRole('link', { name: 'Description: This field is required' }));
    expect(screen.getByRole('textbox', { name: 'Description' })).toHaveFocus();
    expect(scrolled.at(-1)).toHaveClass('wh-field');
    fireEvent.click(within(summary).getByRole('link', { name: 'Incident: This field is required' }));
    expect(screen.getByRole('checkbox', { name: 'Fraud' })).toHaveFocus();
    expect(scrolled.at(-1)?.tagName).toBe('FIELDSET');
    expect(window.location.hash).toBe('');
    rerender(<ErrorSummary title="Please complete" errors={[]} />);
    expect(screen.queryByRole('region')).toBeNull();
  });
});
