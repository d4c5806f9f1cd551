import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useOutletContext } from 'react-router';
import { confirmMfaSetup, isApiError, startMfaSetup } from '@whistle/api-client';
import type { MfaSetupResponse } from '@whistle/contracts';
import { Button, TextField } from '@whistle/ui';
import { useSession } from '../session/session.context';
import type { AccountOutletContext } from './account.page';

const CODE = /^[0-9]{6}$/;

/**
 * /company/settings/account/mfa (spec §4): a warning that existing MFA devices stop working, then
 * the QR code of a new factor and its 6-digit code. A wrong code keeps the same dialog and QR code
 * (the server keeps the pending factor) with error styling.
 */
export function MfaSetupDialog() {
  const { t } = useTranslation('settings');
  const session = useSession();
  const navigate = useNavigate();
  const { onMfaEnabled } = useOutletContext<AccountOutletContext>();
  const [setup, setSetup] = useState<MfaSetupResponse>();
  const [code, setCode] = useState('');
  const [invalid, setInvalid] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ error: unknown }>();
  const titleId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  if (failure) throw failure.error;

  const close = () => navigate('..', { replace: true });

  useEffect(() => {
    dialog.current?.focus();
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && navigate('..', { replace: true });
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [navigate]);

  async function proceed() {
    setBusy(true);
    try {
      setSetup(await startMfaSetup(session.api));
    } catch (error) {
      setFailure({ error });
    } finally {
      setBusy(false);
    }
  }

  async function confirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!CODE.test(code)) return setInvalid(true);
    setBusy(true);
    try {
      const { token } = await confirmMfaSetup(session.api, code);
      await session.replaceToken(token);
      onMfaEnabled();
      close();
    } catch (error) {
      if (isApiError(error) && error.status >= 400 && error.status < 500) {
        setInvalid(true);
        setBusy(false);
      } else setFailure({ error });
    }
  }

  function change(event: ChangeEvent<HTMLInputElement>) {
    setCode(event.target.value.replace(/\D/g, '').slice(0, 6));
    setInvalid(false);
  }

  return (
    <div className="mfe-dialog-backdrop">
      <div
        ref={dialog} tabIndex={-1} role="dialog" aria-modal="true" aria-labelledby={titleId}
        className={['wh-card', 'mfe-dialog', invalid ? 'mfe-dialog--invalid' : ''].filter(Boolean).join(' ')}
      >
        <h2 id={titleId}>{t('mfa.title')}</h2>
        {setup ? (
          <form noValidate onSubmit={(event) => void confirm(event)} aria-busy={busy || undefined}>
            <p>{t('mfa.scan')}</p>
            <img className="mfe-dialog__qr" src={setup.qr_code} alt={t('mfa.qrAlt')} width={200} height={200} />
            <p>{t('mfa.manual')} <code>{setup.secret}</code></p>
            <TextField
              name="challenge_code" label={t('mfa.code')} value={code} onChange={change} inputMode="numeric"
              autoComplete="one-time-code" maxLength={6} required autoFocus error={invalid ? t('mfa.invalid') : undefined}
            />
            <div className="wh-actions">
              <Button type="submit" busy={busy}>{t('mfa.confirm')}</Button>
              <Button variant="secondary" onClick={close}>{t('mfa.cancel')}</Button>
            </div>
          </form>
        ) : (
          <>
            <p role="alert">{t('mfa.warning')}</p>
            <div className="wh-actions">
              <Button busy={busy} onClick={() => void proceed()}>{t('mfa.proceed')}</Button>
              <Button variant="secondary" onClick={close}>{t('mfa.cancel')}</Button>
            </div>
          </>
        )}
      </div>
    </div>
  );
}
