import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { getMailPreferences, setMailPreferences } from '@whistle/api-client';
import { staffLanguageOrEnglish } from '@whistle/contracts';
import { Button, SelectField, Spinner, STAFF_LANGUAGES, languageOptions, useAction, useLoad } from '@whistle/ui';
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
  const { data: preferences, replace } = useLoad((signal) => getMailPreferences(session.api, signal), [session.api]);
  const save = useAction();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const values = new FormData(event.currentTarget);
    const wanted: Preferences = {
      // The select offers the staff languages only: the mails are written in these.
      language: staffLanguageOrEnglish(String(values.get('language'))),
      notifications: {
        new_incidents: values.get('new_incidents') === 'on',
        assigned_to_an_incident: values.get('assigned_to_an_incident') === 'on',
        incident_updates: values.get('incident_updates') === 'on',
        deadlines: values.get('deadlines') === 'on',
      },
    };
    await save.run(async () => {
      replace(await setMailPreferences(session.api, wanted));
      onSaved();
    });
  }

  return (
    <section className="wh-card" aria-labelledby="account-mails">
      <h2 id="account-mails">{t('account.mailTitle')}</h2>
      <p>{t('account.mailIntro')}</p>
      {!preferences ? (
        <Spinner />
      ) : (
        <form onSubmit={(event) => void submit(event)} aria-busy={save.busy || undefined}>
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
            options={languageOptions(STAFF_LANGUAGES)}
          />
          <div className="wh-actions">
            <Button type="submit" busy={save.busy}>
              {t('account.saveMail')}
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
