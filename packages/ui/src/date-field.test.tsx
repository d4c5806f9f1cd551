import { useState } from 'react';
import type { i18n } from 'i18next';
import { fireEvent, screen, within } from '@testing-library/react';
import { initTestI18n } from '../../../tools/webpack/test-i18n';
import { renderWithI18n } from '../test/render';
import { DateField } from './index';

let english: i18n;
let french: i18n;
beforeAll(async () => {
  english = await initTestI18n<i18n>('en');
  french = await initTestI18n<i18n>('fr');
});

/** A form's use of the field: it keeps the value and shows what the field reports. */
function Form({ initial = '', onChange }: { initial?: string; onChange?: (value: string) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <DateField
        name="from"
        label="From"
        value={value}
        onChange={(next) => {
          setValue(next);
          onChange?.(next);
        }}
      />
      <button type="button">Elsewhere</button>
    </>
  );
}

const leave = () =>
  fireEvent.blur(screen.getByRole('textbox', { name: 'Year' }), {
    relatedTarget: screen.getByRole('button', { name: 'Elsewhere' }),
  });

describe('date field', () => {
  it('when day, month name and year are typed, then the form gets the day as YYYY-MM-DD', () => {
    const onChange = jest.fn();
    renderWithI18n(<Form onChange={onChange} />, english);
    const group = screen.getByRole('group', { name: 'From' });
    fireEvent.change(within(group).getByRole('textbox', { name: 'Day' }), { target: { value: '1' } });
    fireEvent.change(within(group).getByRole('combobox', { name: 'Month' }), { target: { value: '5' } });
    fireEvent.change(within(group).getByRole('textbox', { name: 'Year' }), { target: { value: '2025' } });
    expect(onChange).toHaveBeenLastCalledWith('2025-05-01');
    expect(within(group).getByRole('combobox', { name: 'Month' })).toHaveDisplayValue('May');
    leave();
    expect(within(group).queryByText(/real date/)).not.toBeInTheDocument();
  });

  it('when a value comes from the form, then its day, month and year show, day first', () => {
    renderWithI18n(<Form initial="2025-12-31" />, french);
    const group = screen.getByRole('group', { name: 'From' });
    expect(within(group).getByRole('textbox', { name: 'Jour' })).toHaveValue('31');
    expect(within(group).getByRole('combobox', { name: 'Mois' })).toHaveDisplayValue('décembre');
    expect(within(group).getByRole('textbox', { name: 'Année' })).toHaveValue('2025');
    const order = Array.from(group.querySelectorAll('input, select'), (control) => control.getAttribute('name'));
    expect(order).toEqual(['from-day', 'from-month', 'from-year']);
  });

  it('when an impossible day is left, then the field says so in words, with an example, bound to its controls', () => {
    const onChange = jest.fn();
    renderWithI18n(<Form onChange={onChange} />, english);
    fireEvent.change(screen.getByRole('textbox', { name: 'Day' }), { target: { value: '30' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Month' }), { target: { value: '2' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Year' }), { target: { value: '2025' } });
    expect(onChange).toHaveBeenLastCalledWith('2025-02-30');
    expect(screen.queryByText(/real date/)).not.toBeInTheDocument();
    leave();
    expect(screen.getByText('Enter a real date, for example 1 May 2025')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Day' })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('textbox', { name: 'Day' })).toHaveAccessibleDescription(
      'Enter a real date, for example 1 May 2025',
    );
  });

  it('when a part is missing, then the French message asks for day, month and year', () => {
    renderWithI18n(<Form />, french);
    fireEvent.change(screen.getByRole('textbox', { name: 'Jour' }), { target: { value: '1' } });
    fireEvent.blur(screen.getByRole('textbox', { name: 'Jour' }), {
      relatedTarget: screen.getByRole('button', { name: 'Elsewhere' }),
    });
    expect(screen.getByText('Indiquez le jour, le mois et l’année, par exemple 1 mai 2025')).toBeInTheDocument();
  });

  it('when the year has two digits, then it is no day: 25 is not taken for 2025', () => {
    const onChange = jest.fn();
    renderWithI18n(<Form initial="2025-05-01" onChange={onChange} />, english);
    fireEvent.change(screen.getByRole('textbox', { name: 'Year' }), { target: { value: '25' } });
    expect(onChange).toHaveBeenLastCalledWith('25-05-01');
    leave();
    expect(screen.getByText('Enter a real date, for example 1 May 2025')).toBeInTheDocument();
  });

  it('when every part is emptied, then the form gets no date and no message shows', () => {
    const onChange = jest.fn();
    renderWithI18n(<Form initial="2025-05-01" onChange={onChange} />, english);
    fireEvent.change(screen.getByRole('textbox', { name: 'Day' }), { target: { value: '' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Month' }), { target: { value: '' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Year' }), { target: { value: '' } });
    expect(onChange).toHaveBeenLastCalledWith('');
    leave();
    expect(screen.queryByRole('textbox', { name: 'Day' })).not.toHaveAttribute('aria-invalid');
  });

  it('when its form is submitted with half a date, then the field says what is missing', () => {
    renderWithI18n(
      <form onSubmit={(event) => event.preventDefault()}>
        <Form />
        <button type="submit">Apply</button>
      </form>,
      english,
    );
    fireEvent.change(screen.getByRole('textbox', { name: 'Day' }), { target: { value: '1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(screen.getByRole('textbox', { name: 'Day' })).toHaveAccessibleDescription(
      'Enter a day, a month and a year, for example 1 May 2025',
    );
  });

  it('when the form gives its own message, then that one shows', () => {
    renderWithI18n(<DateField name="to" label="To" value="" onChange={jest.fn()} error="Too far back" />, english);
    expect(screen.getByRole('textbox', { name: 'Day' })).toHaveAccessibleDescription('Too far back');
  });
});
