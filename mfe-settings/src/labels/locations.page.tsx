import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { deleteLocation, updateLocation } from '@whistle/api-client';
import { Button, ConfirmDialog, Spinner, useDocumentTitle } from '@whistle/ui';
import { useStaffSession, useStaffState } from '@whistle/ui/staff';
import { useSettingsToast } from '../settings-feedback';

type CompanyLocation = NonNullable<ReturnType<typeof useStaffState>>['company']['locations'][number];

/** /company/settings/locations (ADMIN): where reports can say something happened. */
export function LocationsPage() {
  const { t } = useTranslation('settings');
  const session = useStaffSession();
  const state = useStaffState();
  const { toast, show } = useSettingsToast();
  const [deleting, setDeleting] = useState<CompanyLocation>();
  const [busy, setBusy] = useState<string>();
  const [failure, setFailure] = useState<{ error: unknown }>();
  useDocumentTitle(t('locations.title'));
  if (failure) throw failure.error;
  if (!state) return <Spinner />;

  async function run(locationUuid: string, work: () => Promise<string>) {
    setBusy(locationUuid);
    try {
      const message = await work();
      await session.reloadStaff();
      show(message);
    } catch (error) {
      setFailure({ error });
    } finally {
      setBusy(undefined);
    }
  }

  const toggle = (location: CompanyLocation) =>
    run(location.uuid, async () => {
      await updateLocation(session.api, location.uuid, { name: location.name, is_active: !location.is_active });
      return t('locations.edited');
    });
  const confirmDelete = (location: CompanyLocation) => {
    setDeleting(undefined);
    void run(location.uuid, async () => {
      const { outcome } = await deleteLocation(session.api, location.uuid);
      return outcome === 'deleted' ? t('locations.deleted') : t('locations.deactivated');
    });
  };

  return (
    <>
      <h1>{t('locations.title')}</h1>
      <p>{t('locations.intro')}</p>
      <div className="wh-actions">
        <Link className="wh-button wh-button--primary" to="/company/settings/locations/add">
          {t('locations.add')}
        </Link>
      </div>
      <table className="settings-table">
        <caption className="wh-visually-hidden">{t('locations.title')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('locations.name')}</th>
            <th scope="col">{t('labels.state')}</th>
            <th scope="col">{t('labels.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {state.company.locations.map((location) => (
            <tr key={location.uuid}>
              <th scope="row">{location.name}</th>
              <td>{location.is_active ? t('labels.active') : t('labels.inactive')}</td>
              <td>
                <div className="settings-row-actions">
                  <Link
                    className="wh-button wh-button--secondary"
                    to={`/company/settings/locations/edit/${location.uuid}`}
                    aria-label={t('labels.editNamed', { name: location.name })}
                  >
                    {t('actions.edit')}
                  </Link>
                  <Button
                    variant="secondary"
                    busy={busy === location.uuid}
                    onClick={() => void toggle(location)}
                    aria-label={t(location.is_active ? 'labels.deactivateNamed' : 'labels.activateNamed', {
                      name: location.name,
                    })}
                  >
                    {location.is_active ? t('actions.deactivate') : t('actions.activate')}
                  </Button>
                  <Button
                    variant="secondary"
                    disabled={busy === location.uuid}
                    onClick={() => setDeleting(location)}
                    aria-label={t('labels.deleteNamed', { name: location.name })}
                  >
                    {t('actions.delete')}
                  </Button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ConfirmDialog
        open={deleting !== undefined}
        title={t('locations.deleteTitle', { name: deleting?.name ?? '' })}
        confirmLabel={t('actions.delete')}
        cancelLabel={t('actions.cancel')}
        onConfirm={() => deleting && confirmDelete(deleting)}
        onCancel={() => setDeleting(undefined)}
      >
        <p>{t('labels.deleteWarning')}</p>
        <p>{t('locations.deleteInUse')}</p>
      </ConfirmDialog>
      {toast}
    </>
  );
}
