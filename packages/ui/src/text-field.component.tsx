import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { Field, errorProps, requiredProps } from './field.component';

export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  name: string;
  label: ReactNode;
  error?: string;
  /** Marks the field required, with these words after the label (e.g. 'required'). */
  requiredMark?: string;
}

export function TextField({
  id: givenId,
  requiredMark,
  label,
  error,
  type = 'text',
  className,
  ...props
}: TextFieldProps) {
  const generatedId = useId();
  // A given id lets a page link to the control (an error summary).
  const id = givenId ?? generatedId;
  return (
    <Field id={id} label={label} error={error} requiredMark={requiredMark}>
      <input
        {...props}
        {...errorProps(id, error)}
        {...requiredProps(requiredMark)}
        id={id}
        type={type}
        className={['wh-input', className].filter(Boolean).join(' ')}
      />
    </Field>
  );
}
