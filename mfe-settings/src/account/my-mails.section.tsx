import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { getMailPreferences, setMailPreferences } from '@whistle/api-client';
import { Button, SelectField, Spinner } from '@whistle/ui';
import { useStaffSession } from '@whistle/ui/staff';
import { NOTIFICATION_SETTINGS } from '../company/notifications.page';

type Preferences = Awaited<ReturnType<typeof getMailPreferences>>;

/**
 * The member's own e-mails (account page): which kinds of case mail they want and their language. The
 * company's switches (settings/notifications) apply first; these can only turn more off.
 */
export function MyMailsSection({ onSaved }: { onSaved(): void }) {
  const { t } = useTranslation('settings');
  const session = useStaffSession();
  const [preferences, setPreferences] = useState<Preferences>();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ error: unknown }>();
  useEffect(() => {
    let current = true;
    getMailPreferences(session.api).then(
      (loaded) => current && setPreferences(loaded),
      (error: unknown) => current && setFailure({ error }),
    );
    return () => {
      current = false;
    };
  }, [session.api]);
  if (failure) throw failure.error;

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const values = new FormData(event.currentTarget);
    const wanted: Preferences = {
      language: values.get('language') === 'fr' ? 'fr' : 'en',
      notifications: {
        new_incidents: values.get('new_incidents') === 'on',
        assigned_to_an_incident: values.get('assigned_to_an_incident') === 'on',
        incident_updates: values.get('incident_updates') === 'on',
        deadlines: values.get('deadlines') === 'on',
      },
    };
    setBusy(true);
    try {
      setPreferences(await setMailPreferences(session.api, wanted));
      onSaved();
    } catch (error) {
      setFailure({ error });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="wh-card" aria-labelledby="account-mails">
      <h2 id="account-mails">{t('account.mailTitle')}</h2>
      <p>{t('account.mailIntro')}</p>
      {!preferences ? (
        <Spinner />
      ) : (
        <form onSubmit={(event) => void save(event)} aria-busy={busy || undefined}>
          <fieldset className="settings-checks">
            <legend>{t('account.mailLegend')}</legend>
            {NOTIFICATION_SETTINGS.map((name) => (
              <label key={name}>
                <input type="checkbox" name={name} defaultChecked={preferences.notifications[name]} />
                {t(`account.mailOptions.${name}`)}
              </label>
            ))}
          </fieldset>
          <SelectField
            name="language"
            label={t('account.mailLanguage')}
            defaultValue={preferences.language}
            options={[
              { value: 'en', label: t('account.languages.en') },
              { value: 'fr', label: t('account.languages.fr') },
            ]}
          />
          <div className="wh-actions">
            <Button type="submit" busy={busy}>
              {t('account.saveMail')}
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
