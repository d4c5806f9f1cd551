import type { ReactNode } from 'react';
import './choice.css';

export interface ChoiceOption<T extends string> {
  value: T;
  label: string;
}

export interface ChoiceProps<T extends string> {
  name: string;
  legend: ReactNode;
  options: readonly ChoiceOption<T>[];
  value: T;
  onChange: (value: T) => void;
}

/** One answer among a few, as radio buttons in a fieldset (report channel, yes/no questions). */
export function Choice<T extends string>({ name, legend, options, value, onChange }: ChoiceProps<T>) {
  return (
    <fieldset className="wh-choice">
      <legend className="wh-field__label">{legend}</legend>
      {options.map((option) => (
        <label key={option.value}>
          <input
            type="radio"
            name={name}
            value={option.value}
            checked={value === option.value}
            onChange={() => onChange(option.value)}
          />{' '}
          {option.label}
        </label>
      ))}
    </fieldset>
  );
}
