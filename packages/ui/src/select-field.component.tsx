import { useId, type ReactNode, type SelectHTMLAttributes } from 'react';
import { Field, errorProps, requiredProps } from './field.component';

export interface SelectOption {
  value: string;
  label: string;
  /** The language the label is written in, where it is not the page's (a language named in itself). */
  lang?: string;
}

export interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  name: string;
  label: ReactNode;
  options: readonly SelectOption[];
  /** First, empty choice: nothing selected yet. */
  placeholder?: string;
  error?: string;
  /** Marks the field required, with these words after the label (e.g. 'required'). */
  requiredMark?: string;
}

export function SelectField({
  id: givenId,
  requiredMark,
  label,
  options,
  placeholder,
  error,
  className,
  ...props
}: SelectFieldProps) {
  const generatedId = useId();
  // A given id lets a page link to the control (an error summary).
  const id = givenId ?? generatedId;
  return (
    <Field id={id} label={label} error={error} requiredMark={requiredMark}>
      <select
        {...props}
        {...errorProps(id, error)}
        {...requiredProps(requiredMark)}
        id={id}
        className={['wh-input', className].filter(Boolean).join(' ')}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value} lang={option.lang}>
            {option.label}
          </option>
        ))}
      </select>
    </Field>
  );
}
