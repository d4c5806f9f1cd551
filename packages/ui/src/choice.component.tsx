import { useId, type ReactNode } from 'react';
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
  /** Words that help answer, after the options, read with the group (aria-describedby). */
  description?: ReactNode;
}

/** One answer among a few, as radio buttons in a fieldset (report channel, yes/no questions). */
export function Choice<T extends string>({ name, legend, options, value, onChange, description }: ChoiceProps<T>) {
  const descriptionId = useId();
  return (
    <fieldset className="wh-choice" aria-describedby={description ? descriptionId : undefined}>
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
      {description && (
        <div className="wh-choice__description" id={descriptionId}>
          {description}
        </div>
      )}
    </fieldset>
  );
}
