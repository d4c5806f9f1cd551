import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { updateCompany } from '@whistle/api-client';
import { Button, useAction } from '@whistle/ui';
import { useStaffSession } from '@whistle/ui/staff';

/**
 * Whether the report form names the case team (docs/security.md, "Keeping people out"): the default assignees of the
 * chosen categories, the admins and the reviewers, whom the reporter may then keep out of their report. Off until an
 * admin turns it on (data minimisation, GDPR art. 25(2)); off, the form says who reads a report by role only.
 */
export function RecipientNamesSection({ shown, onSaved }: { shown: boolean; onSaved: (message: string) => void }) {
  const { t } = useTranslation('settings');
  const session = useStaffSession();
  const save = useAction();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const showsRecipientNames = new FormData(event.currentTarget).get('shows_recipient_names') === 'on';
    await save.run(async () => {
      await updateCompany(session.api, { settings: { shows_recipient_names: showsRecipientNames } });
      await session.reloadStaff();
      onSaved(t('updatedSettings'));
    });
  }

  return (
    <form className="wh-card" onSubmit={(event) => void submit(event)} aria-busy={save.busy || undefined}>
      <fieldset className="settings-checks">
        <legend>{t('categories.recipientNames.legend')}</legend>
        <label>
          <input type="checkbox" name="shows_recipient_names" defaultChecked={shown} />
          {t('categories.recipientNames.label')}
        </label>
        <p className="settings-muted">{t('categories.recipientNames.hint')}</p>
      </fieldset>
      <div className="wh-actions">
        <Button type="submit" busy={save.busy}>
          {t('actions.save')}
        </Button>
      </div>
    </form>
  );
}
