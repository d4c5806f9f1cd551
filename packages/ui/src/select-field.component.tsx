import { useId, type ReactNode, type SelectHTMLAttributes } from 'react';
import { Field, errorProps } from './field.component';

export interface SelectOption {
  value: string;
  label: string;
}

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> {
  name: string;
  label: ReactNode;
  options: readonly SelectOption[];
  /** First, empty choice: nothing selected yet. */
  placeholder?: string;
  error?: string;
}

export function SelectField({ label, options, placeholder, error, className, ...props }: SelectFieldProps) {
  const id = useId();
  return (
    <Field id={id} label={label} error={error}>
      <select
        {...props}
        {...errorProps(id, error)}
        id={id}
        className={['wh-input', className].filter(Boolean).join(' ')}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </Field>
  );
}
