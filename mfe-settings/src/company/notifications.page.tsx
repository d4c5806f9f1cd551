import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { updateCompany } from '@whistle/api-client';
import { Button, Spinner, useAction, useDocumentTitle } from '@whistle/ui';
import { usePageToast, useStaffSession, useStaffState } from '@whistle/ui/staff';

/**
 * Spec §3 notification settings options (kept here rather than imported from the contracts' schemas, which
 * would bring zod into this remote).
 */
export const NOTIFICATION_SETTINGS = [
  'new_incidents',
  'assigned_to_an_incident',
  'incident_updates',
  'deadlines',
] as const;

/** /company/settings/notifications (ADMIN): which e-mails the company's staff get. */
export function NotificationsPage() {
  const { t } = useTranslation('settings');
  const session = useStaffSession();
  const state = useStaffState();
  const { toast, show } = usePageToast(t('dismiss'));
  const save = useAction();
  useDocumentTitle(t('notifications.title'));
  if (!state) return <Spinner />;
  const current = state.company.settings.notifications;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const values = new FormData(event.currentTarget);
    const notifications = Object.fromEntries(NOTIFICATION_SETTINGS.map((name) => [name, values.get(name) === 'on']));
    await save.run(async () => {
      await updateCompany(session.api, { settings: { notifications } });
      await session.reloadStaff();
      show(t('updatedSettings'));
    });
  }

  return (
    <>
      <h1>{t('notifications.title')}</h1>
      <form className="wh-card" onSubmit={(event) => void submit(event)} aria-busy={save.busy || undefined}>
        <fieldset className="settings-checks">
          <legend>{t('notifications.legend')}</legend>
          {NOTIFICATION_SETTINGS.map((name) => (
            <label key={name}>
              <input type="checkbox" name={name} defaultChecked={current[name] ?? true} />
              {t(`notifications.options.${name}`)}
            </label>
          ))}
        </fieldset>
        <div className="wh-actions">
          <Button type="submit" busy={save.busy}>
            {t('actions.save')}
          </Button>
        </div>
      </form>
      {toast}
    </>
  );
}
