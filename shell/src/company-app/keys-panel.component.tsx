import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { CompanyKeyStatus, KeyringState, StaffState } from '@whistle/api-client';
import { getOwnKeys, requestCompanyKey } from '@whistle/api-client';
import { Button, formatDate, TextField } from '@whistle/ui';
import { RecoveryKitSheet, type RecoveryKitView } from '@whistle/ui/staff';
import { staffSession } from '../session/staff-session';
import { PendingKeyRequests } from './pending-key-requests.component';
import { useKeyFailure } from './key-failure';
import { MIN_PASSWORD_LENGTH } from '../public-pages/keys/password-rules';
import './keys-panel.css';

const { keyring } = staffSession;
const KEY_STATUS_POLL_MS = 15_000;

function useKeyringState(): KeyringState {
  const [state, setState] = useState(keyring.state());
  useEffect(() => keyring.subscribe(setState), []);
  return state;
}

/**
 * Between the company app's header and its pages: what the person must do before reports open in this browser —
 * unlock their keys, set them up (SSO users), restore access to the company key (admins after a reset), or move a
 * company key kept the old way to its admins. Nothing here when all is well.
 */
export function KeysPanel({ state }: { state: StaffState }) {
  const keyringState = useKeyringState();
  const isAdmin = state.profile.roles.includes('ADMIN');
  if (keyringState === 'locked') return <UnlockPanel />;
  if (keyringState === 'absent') return <SetUpPanel />;
  if (keyringState === 'unlocked') return <CompanyKeyPanel companyName={state.company.name} isAdmin={isAdmin} />;
  return null;
}

function UnlockPanel() {
  const { t } = useTranslation('shell');
  const { message, run } = useKeyFailure();
  const [busy, setBusy] = useState(false);
  const [methods, setMethods] = useState<{ password: boolean; passkey: boolean; passphrase: boolean }>();

  useEffect(() => {
    getOwnKeys(staffSession.api).then(
      (own) => {
        const kinds = new Set(own.person?.unlock.map((method) => method.method));
        setMethods({
          password: kinds.has('password'),
          passkey: kinds.has('passkey'),
          passphrase: kinds.has('passphrase'),
        });
      },
      () => setMethods({ password: true, passkey: false, passphrase: false }),
    );
  }, []);

  async function submit(event: FormEvent<HTMLFormElement>, how: 'password' | 'passphrase') {
    event.preventDefault();
    const secret = String(new FormData(event.currentTarget).get(how) ?? '');
    if (!secret) return;
    setBusy(true);
    await run(() => (how === 'password' ? keyring.unlockWithPassword(secret) : keyring.unlockWithPassphrase(secret)));
    setBusy(false);
  }

  return (
    <section className="wh-card shell-keys-panel" aria-labelledby="keys-unlock-title">
      <h2 id="keys-unlock-title">{t('keys.unlockTitle')}</h2>
      <p>{t('keys.unlockIntro')}</p>
      {methods?.password && (
        <form onSubmit={(event) => void submit(event, 'password')} aria-busy={busy || undefined}>
          <TextField
            name="password"
            type="password"
            label={t('keys.password')}
            autoComplete="current-password"
            required
          />
          <Button type="submit" busy={busy}>
            {t('keys.unlock')}
          </Button>
        </form>
      )}
      {methods?.passphrase && (
        <form onSubmit={(event) => void submit(event, 'passphrase')} aria-busy={busy || undefined}>
          <TextField name="passphrase" type="password" label={t('keys.passphrase')} autoComplete="off" required />
          <Button type="submit" busy={busy}>
            {t('keys.unlock')}
          </Button>
        </form>
      )}
      {methods?.passkey && (
        <Button variant="secondary" onClick={() => void run(() => keyring.unlockWithPasskey())}>
          {t('keys.usePasskey')}
        </Button>
      )}
      {message && (
        <p className="wh-alert" role="alert">
          {message}
        </p>
      )}
    </section>
  );
}

function SetUpPanel() {
  const { t } = useTranslation('shell');
  const { message, run } = useKeyFailure();
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<{ passphrase?: string; repeat?: string }>({});

  async function withPassphrase(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const passphrase = String(form.get('passphrase') ?? '');
    const repeat = String(form.get('repeat_passphrase') ?? '');
    const invalid = {
      passphrase: passphrase.length < MIN_PASSWORD_LENGTH ? t('onboarding.passwordLength') : undefined,
      repeat: repeat !== passphrase ? t('common:validation.passwordsMismatch') : undefined,
    };
    setErrors(invalid);
    if (invalid.passphrase || invalid.repeat) return;
    setBusy(true);
    await run(() => keyring.setUpWithPassphrase(passphrase));
    setBusy(false);
  }

  return (
    <section className="wh-card shell-keys-panel" aria-labelledby="keys-setup-title">
      <h2 id="keys-setup-title">{t('keys.setUpTitle')}</h2>
      <p>{t('keys.setUpIntro')}</p>
      <h3>{t('keys.setUpPasskeyTitle')}</h3>
      <p>{t('keys.setUpPasskeyIntro')}</p>
      <Button onClick={() => void run(() => keyring.setUpWithPasskey(t('keys.defaultPasskeyLabel')))}>
        {t('keys.setUpPasskey')}
      </Button>
      <h3>{t('keys.setUpPassphraseTitle')}</h3>
      <form onSubmit={(event) => void withPassphrase(event)} aria-busy={busy || undefined} noValidate>
        <TextField
          name="passphrase"
          type="password"
          label={t('keys.passphrase')}
          autoComplete="new-password"
          required
          error={errors.passphrase}
        />
        <TextField
          name="repeat_passphrase"
          type="password"
          label={t('keys.repeatPassphrase')}
          autoComplete="new-password"
          required
          error={errors.repeat}
        />
        <Button type="submit" variant="secondary" busy={busy}>
          {t('keys.setUpPassphrase')}
        </Button>
      </form>
      {message && (
        <p className="wh-alert" role="alert">
          {message}
        </p>
      )}
    </section>
  );
}

function CompanyKeyPanel({ companyName, isAdmin }: { companyName: string; isAdmin: boolean }) {
  const { t, i18n } = useTranslation('shell');
  const { message, run } = useKeyFailure();
  const [status, setStatus] = useState<CompanyKeyStatus>();
  const [kit, setKit] = useState<RecoveryKitView>();
  const [busy, setBusy] = useState(false);
  const reload = () => keyring.companyKeyStatus().then(setStatus, () => undefined);

  useEffect(() => {
    void reload();
  }, []);
  // Until an admin's browser grants the key: asked again now and then, so the pages read as soon as it is there.
  const missing = status?.state === 'missing';
  useEffect(() => {
    if (!missing) return undefined;
    const timer = setInterval(() => void reload(), KEY_STATUS_POLL_MS);
    return () => clearInterval(timer);
  }, [missing]);

  if (kit)
    return (
      <section className="wh-card shell-keys-panel">
        <RecoveryKitSheet kit={kit} companyName={companyName} onConfirmed={() => setKit(undefined)} />
      </section>
    );
  if (!status) return null;
  if (status.state === 'held') return isAdmin ? <PendingKeyRequests /> : null;
  // Until an admin moves it, the team reads the old way; only an admin can move it.
  if (status.state === 'legacy' && !isAdmin) return null;

  if (status.state === 'legacy')
    return (
      <section className="wh-card shell-keys-panel" aria-labelledby="keys-legacy-title">
        <h2 id="keys-legacy-title">{t('keys.legacyTitle')}</h2>
        <p>{t('keys.legacyIntro')}</p>
        <Button
          busy={busy}
          onClick={() => {
            setBusy(true);
            void run(async () => {
              setKit(await keyring.migrateCompanyKey());
              await reload();
            }).finally(() => setBusy(false));
          }}
        >
          {t('keys.legacyMove')}
        </Button>
        {message && (
          <p className="wh-alert" role="alert">
            {message}
          </p>
        )}
      </section>
    );

  async function restore(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const text = String(new FormData(event.currentTarget).get('recovery_kit') ?? '');
    if (!text.trim()) return;
    setBusy(true);
    await run(async () => {
      await keyring.restoreWithRecoveryKit(text);
      await reload();
    });
    setBusy(false);
  }

  const person = keyring.person();
  const expires = status.accessRequest ? formatDate(status.accessRequest.expiresAt, i18n.language) : undefined;
  return (
    <section className="wh-card shell-keys-panel" aria-labelledby="keys-missing-title">
      <h2 id="keys-missing-title">{isAdmin ? t('keys.missingTitle') : t('keys.missingTitleTeam')}</h2>
      <p>{isAdmin ? t('keys.missingIntro') : t('keys.missingIntroTeam')}</p>
      {isAdmin && (
        <>
          <h3>{t('keys.restoreTitle')}</h3>
          <form onSubmit={(event) => void restore(event)} aria-busy={busy || undefined}>
            <TextField
              name="recovery_kit"
              label={t('keys.recoveryKit')}
              autoComplete="off"
              spellCheck={false}
              required
            />
            <Button type="submit" busy={busy}>
              {t('keys.restore')}
            </Button>
          </form>
        </>
      )}
      <h3>{isAdmin ? t('keys.askTitle') : t('keys.askTitleTeam')}</h3>
      {person && (
        <p>
          {t('keys.yourFingerprint')} <strong className="shell-keys-panel__fingerprint">{person.fingerprint}</strong>
        </p>
      )}
      {status.accessRequest ? (
        <p role="status">{t('keys.requested', { date: expires })}</p>
      ) : (
        <Button
          variant="secondary"
          onClick={() =>
            void run(async () => {
              await requestCompanyKey(staffSession.api);
              await reload();
            })
          }
        >
          {t('keys.ask')}
        </Button>
      )}
      {message && (
        <p className="wh-alert" role="alert">
          {message}
        </p>
      )}
    </section>
  );
}
