import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useOutletContext } from 'react-router';
import { confirmMfaSetup, isApiError, startMfaSetup } from '@whistle/api-client';
import type { MfaSetupResponse } from '@whistle/contracts';
import { ConfirmDialog, TextField, useAction } from '@whistle/ui';
import { useStaffSession } from '@whistle/ui/staff';
import type { AccountOutletContext } from './account.page';
import './mfa-setup.css';

const CODE = /^[0-9]{6}$/;

/**
 * /company/settings/account/mfa (spec §4): a warning that existing MFA devices stop working, then
 * the QR code of a new factor and its 6-digit code. A wrong code keeps the same dialog and QR code
 * (the server keeps the pending factor) with the code box in error styling.
 */
export function MfaSetupDialog() {
  const { t } = useTranslation('settings');
  const session = useStaffSession();
  const navigate = useNavigate();
  const { onMfaEnabled } = useOutletContext<AccountOutletContext>();
  const [setup, setSetup] = useState<MfaSetupResponse>();
  const [code, setCode] = useState('');
  const [invalid, setInvalid] = useState(false);
  const { busy, run } = useAction();

  const close = () => navigate('..', { replace: true });

  const proceed = () => run(async () => setSetup(await startMfaSetup(session.api)));

  async function confirm() {
    if (!CODE.test(code)) return setInvalid(true);
    await run(
      async () => {
        const { token } = await confirmMfaSetup(session.api, code);
        await session.replaceToken(token);
        onMfaEnabled();
        close();
      },
      {
        // A wrong code keeps the dialog and its QR code, the code box in error styling.
        recover: (error) => {
          const wrongCode = isApiError(error) && error.status < 500;
          if (wrongCode) setInvalid(true);
          return wrongCode;
        },
        leaves: true,
      },
    );
  }

  function change(event: ChangeEvent<HTMLInputElement>) {
    setCode(event.target.value.replace(/\D/g, '').slice(0, 6));
    setInvalid(false);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!busy) void confirm();
  }

  if (!setup) {
    return (
      <ConfirmDialog
        key="warning"
        open
        title={t('mfa.title')}
        confirmLabel={t('mfa.proceed')}
        cancelLabel={t('mfa.cancel')}
        confirmDisabled={busy}
        onConfirm={() => void proceed()}
        onCancel={close}
      >
        <p role="alert">{t('mfa.warning')}</p>
      </ConfirmDialog>
    );
  }
  // A new dialog (key) for the QR code step, so focus moves into it, to the code box.
  return (
    <ConfirmDialog
      key="code"
      open
      title={t('mfa.title')}
      confirmLabel={t('mfa.confirm')}
      cancelLabel={t('mfa.cancel')}
      confirmDisabled={busy}
      onConfirm={() => void confirm()}
      onCancel={close}
    >
      {/* A form so Enter in the code box confirms too. */}
      <form noValidate onSubmit={submit} aria-busy={busy || undefined}>
        <p>{t('mfa.scan')}</p>
        <img className="mfe-settings__qr" src={setup.qr_code} alt={t('mfa.qrAlt')} width={200} height={200} />
        <p>
          {t('mfa.manual')} <code>{setup.secret}</code>
        </p>
        <TextField
          name="challenge_code"
          label={t('mfa.code')}
          value={code}
          onChange={change}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          required
          error={invalid ? t('mfa.invalid') : undefined}
        />
      </form>
    </ConfirmDialog>
  );
}
