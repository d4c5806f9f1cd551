import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, TextField } from '@whistle/ui';
import type { OpenFailure } from '../session/status-outcome.store';

/** A code that did not open a report, as typed, and why. */
export interface StatusFormFailure {
  code: string;
  failure: OpenFailure;
}

export interface StatusFormProps {
  /** The review page, which the code is posted to. */
  action: string;
  onSubmitCode(code: string): void;
  onCancel(): void;
  /** The code typed before (being checked, or refused): the form opens with it. */
  code?: string;
  /** The code is being checked. */
  checking?: boolean;
  /** Why the last code did not open a report: said here, the form kept open with what was typed. */
  failure?: OpenFailure;
}

/** Inline 'Check incident status' form (spec §2/§4): posts the secret code to the review page. */
export function StatusForm({ action, onSubmitCode, onCancel, code, checking = false, failure }: StatusFormProps) {
  const { t } = useTranslation(['disclose', 'common']);
  const [missing, setMissing] = useState(false);
  // A refusal is answered until the code is edited.
  const [edited, setEdited] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const messageId = useId();
  const message = missing
    ? t('common:validation.required')
    : failure && !edited && !checking
      ? t(`status.errors.${failure}`)
      : undefined;

  // The form appears after a click: move the keyboard focus into it.
  useEffect(() => {
    formRef.current?.querySelector('input')?.focus();
  }, []);
  // A refused code: back to the input (the button was disabled while checking), the message read with it.
  useEffect(() => {
    if (!failure || formRef.current?.contains(document.activeElement)) return;
    formRef.current?.querySelector('input')?.focus();
  }, [failure]);

  function submit(event: FormEvent<HTMLFormElement>) {
    // Posted in the page (the router runs the review action), never by the browser.
    event.preventDefault();
    const input = event.currentTarget.elements.namedItem('uniquePassword') as HTMLInputElement;
    if (input.value.trim()) {
      setEdited(false);
      return onSubmitCode(input.value);
    }
    setMissing(true);
    input.focus();
  }

  return (
    <form
      ref={formRef}
      method="post"
      action={action}
      noValidate
      onSubmit={submit}
      className="disclose-status"
      aria-labelledby="status-title"
    >
      <h2 id="status-title">{t('status.title')}</h2>
      <TextField
        name="uniquePassword"
        label={t('status.secretCode')}
        placeholder={t('status.placeholder')}
        required
        defaultValue={code}
        autoComplete="off"
        spellCheck={false}
        // The code is Latin letters and digits: typed left to right, even on a right-to-left page.
        dir="ltr"
        aria-invalid={message ? true : undefined}
        aria-describedby={message ? messageId : undefined}
        className={message ? 'disclose-status__input--invalid' : undefined}
        onChange={() => {
          setMissing(false);
          setEdited(true);
        }}
      />
      {/* An alert: a refusal arrives while the person may still be in the input. */}
      <p className="wh-field__error disclose-status__message" id={messageId} role="alert">
        {message}
      </p>
      <div className="wh-actions">
        <Button variant="secondary" onClick={onCancel}>
          {t('status.cancel')}
        </Button>
        <Button type="submit" busy={checking}>
          {checking ? t('status.checking') : t('status.submit')}
        </Button>
      </div>
    </form>
  );
}
