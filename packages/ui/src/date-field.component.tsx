import { useEffect, useId, useRef, useState, type FocusEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDay, isIsoDay, monthNames } from './dates';
import './date-field.css';

export interface DateFieldProps {
  name: string;
  label: ReactNode;
  /** The day as YYYY-MM-DD, or '' for none. */
  value: string;
  /**
   * YYYY-MM-DD once day, month and year make a real day; '' when all three are empty; otherwise what was typed
   * (not a day: `isIsoDay` tells), so a form knows not to use it.
   */
  onChange: (value: string) => void;
  /** The form's message (e.g. the server's); shown instead of the field's own. */
  error?: string;
}

interface Parts {
  day: string;
  month: string;
  year: string;
}

const EMPTY: Parts = { day: '', month: '', year: '' };

const partsOf = (value: string): Parts => {
  if (!isIsoDay(value)) return EMPTY;
  const [year, month, day] = value.split('-') as [string, string, string];
  return { day: String(Number(day)), month: String(Number(month)), year };
};

const two = (value: string) => value.padStart(2, '0');
const valueOf = ({ day, month, year }: Parts): string =>
  !day && !month && !year ? '' : `${year}-${two(month)}-${two(day)}`;

type Problem = 'incomplete' | 'invalid';
function problemOf(parts: Parts): Problem | undefined {
  const value = valueOf(parts);
  if (value === '' || isIsoDay(value)) return undefined;
  if (!parts.day || !parts.month || !parts.year) return 'incomplete';
  return 'invalid';
}

/**
 * A date typed as day, month (by name) and year, in that order in every language: unlike `<input type=date>`,
 * whose format follows the browser's locale (mm/dd/yyyy in an en-US Chromium), nobody can misread it. It says
 * what is wrong once the person leaves it, or submits its form, with an incomplete or impossible date.
 */
export function DateField({ name, label, value, onChange, error }: DateFieldProps) {
  const { t, i18n } = useTranslation('common');
  const id = useId();
  const [parts, setParts] = useState<Parts>(() => partsOf(value));
  const [shownValue, setShownValue] = useState(value);
  const [touched, setTouched] = useState(false);
  const fieldset = useRef<HTMLFieldSetElement>(null);
  // Submitting the form (Enter in the day, before leaving the field) shows what is wrong too.
  useEffect(() => {
    const form = fieldset.current?.form;
    if (!form) return;
    const submitted = () => setTouched(true);
    form.addEventListener('submit', submitted);
    return () => form.removeEventListener('submit', submitted);
  }, []);
  // A new value from the form (a reset, a preset) replaces what was typed; the field's own echoes do not.
  if (value !== shownValue) {
    setShownValue(value);
    if (value !== valueOf(parts)) setParts(partsOf(value));
  }
  const change = (part: keyof Parts) => (event: { target: { value: string } }) => {
    const next = { ...parts, [part]: event.target.value.trim() };
    setParts(next);
    const nextValue = valueOf(next);
    setShownValue(nextValue);
    onChange(nextValue);
  };
  const leave = (event: FocusEvent<HTMLFieldSetElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setTouched(true);
  };

  const problem = touched ? problemOf(parts) : undefined;
  const message = error ?? (problem && t(`dateField.${problem}`, { example: formatDay('2025-05-01', i18n.language) }));
  const errorId = `${id}-error`;
  const invalid = message ? { 'aria-invalid': true as const, 'aria-describedby': errorId } : {};
  return (
    <fieldset ref={fieldset} className={message ? 'wh-date-field wh-field--invalid' : 'wh-date-field'} onBlur={leave}>
      <legend className="wh-field__label">{label}</legend>
      <div className="wh-date-field__parts">
        <label className="wh-date-field__part wh-date-field__day">
          <span>{t('dateField.day')}</span>
          <input
            {...invalid}
            className="wh-input"
            name={`${name}-day`}
            inputMode="numeric"
            autoComplete="off"
            maxLength={2}
            value={parts.day}
            onChange={change('day')}
          />
        </label>
        <label className="wh-date-field__part wh-date-field__month">
          <span>{t('dateField.month')}</span>
          <select
            {...invalid}
            className="wh-input"
            name={`${name}-month`}
            value={parts.month}
            onChange={change('month')}
          >
            <option value="">{t('dateField.noMonth')}</option>
            {monthNames(i18n.language).map((month, index) => (
              <option key={month} value={String(index + 1)}>
                {month}
              </option>
            ))}
          </select>
        </label>
        <label className="wh-date-field__part wh-date-field__year">
          <span>{t('dateField.year')}</span>
          <input
            {...invalid}
            className="wh-input"
            name={`${name}-year`}
            inputMode="numeric"
            autoComplete="off"
            maxLength={4}
            value={parts.year}
            onChange={change('year')}
          />
        </label>
      </div>
      {message && (
        <p className="wh-field__error" id={errorId}>
          {message}
        </p>
      )}
    </fieldset>
  );
}
