import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { getOwnKeys, isCommonPassword, removeUnlockMethod } from '@whistle/api-client';
import type { UnlockMethod } from '@whistle/contracts';
import { Button, ConfirmDialog, formatDate, Spinner, TextField, useLoad } from '@whistle/ui';
import { useStaffSession } from '@whistle/ui/staff';
import { useKeysFailure } from '../keys-failure';
import { useKeyringState } from '../use-keyring-state';

/** As long as a password: checked here, the only place that sees the passphrase. */
const MIN_PASSPHRASE_LENGTH = 10;

/**
 * The account page's "Unlock methods": each is a sealed copy of the person's keys under its own secret (the
 * password, a passkey, an unlock passphrase). Adding one seals the unlocked keys again in the shell's keyring; the
 * server refuses to remove the password's copy or the last one.
 */
export function UnlockMethodsSection() {
  const { t, i18n } = useTranslation('settings');
  const session = useStaffSession();
  const keyringState = useKeyringState(session.keyring);
  // Keys set up or unlocked in the banner meanwhile: asked again (none before MFA is complete).
  const own = useLoad(
    async () => (keyringState === 'unavailable' ? undefined : getOwnKeys(session.api)),
    [session, keyringState],
  );
  const failure = useKeysFailure();
  const [done, setDone] = useState<string>();
  const [busy, setBusy] = useState<string>();
  const [removing, setRemoving] = useState<UnlockMethod>();
  const titleId = useId();

  async function act(key: string, work: () => Promise<unknown>, success: string): Promise<boolean> {
    setDone(undefined);
    setBusy(key);
    const ok = await failure.run(work);
    setBusy(undefined);
    if (ok) {
      setDone(success);
      await own.reload();
    }
    return ok;
  }

  const name = (method: UnlockMethod) =>
    method.method === 'password'
      ? t('unlockMethods.password')
      : method.method === 'passkey'
        ? t('unlockMethods.passkey', { label: method.label ?? '' })
        : t('unlockMethods.passphrase');
  const person = own.data?.person;

  return (
    <section className="wh-card" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('unlockMethods.title')}</h2>
      <p>{t('unlockMethods.intro')}</p>
      {own.loading && <Spinner />}
      {own.data && !person && <p>{t('unlockMethods.noKeys')}</p>}
      {person && (
        <ul className="settings-unlock-methods">
          {person.unlock.map((method) => (
            <li key={method.id}>
              <span>
                <strong>{name(method)}</strong>{' '}
                <span className="settings-muted">
                  {t('unlockMethods.added', { date: formatDate(method.created, i18n.language) })}
                </span>
              </span>
              {method.method !== 'password' && (
                <Button
                  variant="danger"
                  small
                  busy={busy === method.id}
                  onClick={() => setRemoving(method)}
                  aria-label={t('unlockMethods.removeFor', { method: name(method) })}
                >
                  {t('unlockMethods.remove')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {done && <p role="status">{done}</p>}
      {failure.message && (
        <p className="wh-alert" role="alert">
          {failure.message}
        </p>
      )}
      {person && keyringState !== 'unlocked' && <p>{t('unlockMethods.locked')}</p>}
      {person && keyringState === 'unlocked' && (
        <>
          <AddPasskeyForm
            busy={busy === 'passkey'}
            onAdd={(label) =>
              act('passkey', () => session.keyring.addPasskey(label), t('unlockMethods.passkeyAdded', { label }))
            }
          />
          <PassphraseForm
            exists={person.unlock.some((method) => method.method === 'passphrase')}
            busy={busy === 'passphrase'}
            onSet={(passphrase) =>
              act('passphrase', () => session.keyring.addPassphrase(passphrase), t('unlockMethods.passphraseAdded'))
            }
          />
        </>
      )}
      <ConfirmDialog
        open={Boolean(removing)}
        title={removing ? t('unlockMethods.removeTitle', { method: name(removing) }) : ''}
        confirmLabel={t('unlockMethods.remove')}
        cancelLabel={t('unlockMethods.cancel')}
        danger
        onConfirm={() => {
          const method = removing!;
          setRemoving(undefined);
          void act(
            method.id,
            () => removeUnlockMethod(session.api, method.id),
            t('unlockMethods.removed', { method: name(method) }),
          );
        }}
        onCancel={() => setRemoving(undefined)}
      >
        <p>{t('unlockMethods.removeWarning')}</p>
      </ConfirmDialog>
    </section>
  );
}

function AddPasskeyForm({ busy, onAdd }: { busy: boolean; onAdd(label: string): Promise<boolean> }) {
  const { t } = useTranslation('settings');
  const [error, setError] = useState<string>();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const label = String(new FormData(form).get('passkey_label') ?? '').trim();
    setError(label ? undefined : t('common:validation.required'));
    if (label && (await onAdd(label))) form.reset();
  }

  return (
    <form noValidate onSubmit={(event) => void submit(event)} aria-busy={busy || undefined}>
      <h3>{t('unlockMethods.passkeyTitle')}</h3>
      <p>{t('unlockMethods.passkeyIntro')}</p>
      <TextField
        name="passkey_label"
        label={t('unlockMethods.passkeyLabel')}
        placeholder={t('unlockMethods.passkeyLabelExample')}
        maxLength={100}
        autoComplete="off"
        required
        error={error}
      />
      <div className="wh-actions">
        <Button type="submit" variant="secondary" busy={busy}>
          {t('unlockMethods.addPasskey')}
        </Button>
      </div>
    </form>
  );
}

function PassphraseForm(props: { exists: boolean; busy: boolean; onSet(passphrase: string): Promise<boolean> }) {
  const { t } = useTranslation(['settings', 'common']);
  const session = useStaffSession();
  const [errors, setErrors] = useState<{ passphrase?: string; repeat?: string }>({});

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values = new FormData(form);
    const passphrase = String(values.get('unlock_passphrase') ?? '');
    const repeat = String(values.get('repeat_unlock_passphrase') ?? '');
    const invalid = {
      passphrase: passphrase.length < MIN_PASSPHRASE_LENGTH ? t('unlockMethods.passphraseLength') : undefined,
      repeat: repeat !== passphrase ? t('common:validation.passwordsMismatch') : undefined,
    };
    if (!invalid.passphrase && !invalid.repeat && (await isCommonPassword(session.api, passphrase)))
      invalid.passphrase = t('common:validation.passwordTooCommon');
    setErrors(invalid);
    if (invalid.passphrase || invalid.repeat) return;
    if (await props.onSet(passphrase)) form.reset();
  }

  return (
    <>
      <h3>{t('unlockMethods.passphraseTitle')}</h3>
      {props.exists ? (
        <p>{t('unlockMethods.passphraseExists')}</p>
      ) : (
        <form noValidate onSubmit={(event) => void submit(event)} aria-busy={props.busy || undefined}>
          <p>{t('unlockMethods.passphraseIntro')}</p>
          <TextField
            name="unlock_passphrase"
            type="password"
            label={t('unlockMethods.newPassphrase')}
            autoComplete="new-password"
            required
            error={errors.passphrase}
          />
          <TextField
            name="repeat_unlock_passphrase"
            type="password"
            label={t('unlockMethods.repeatPassphrase')}
            autoComplete="new-password"
            required
            error={errors.repeat}
          />
          <div className="wh-actions">
            <Button type="submit" variant="secondary" busy={props.busy}>
              {t('unlockMethods.setPassphrase')}
            </Button>
          </div>
        </form>
      )}
    </>
  );
}
