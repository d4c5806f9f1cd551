import type { ButtonHTMLAttributes } from 'react';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary';
  /** Disables the button and tells assistive technology that work is in progress. */
  busy?: boolean;
}

export function Button({
  variant = 'primary',
  busy = false,
  disabled,
  className,
  type = 'button',
  ...props
}: ButtonProps) {
  return (
    <button
      {...props}
      type={type}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      className={['wh-button', `wh-button--${variant}`, className].filter(Boolean).join(' ')}
    />
  );
}
