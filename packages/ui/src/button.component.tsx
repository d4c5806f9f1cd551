import type { ButtonHTMLAttributes } from 'react';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** `danger` for what deletes, revokes or removes. */
  variant?: 'primary' | 'secondary' | 'danger';
  /** A compact button (in a table row); still a 36 px target. */
  small?: boolean;
  /** Disables the button and tells assistive technology that work is in progress. */
  busy?: boolean;
}

export function Button({
  variant = 'primary',
  busy = false,
  small = false,
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
      className={['wh-button', `wh-button--${variant}`, small && 'wh-button--small', className]
        .filter(Boolean)
        .join(' ')}
    />
  );
}
