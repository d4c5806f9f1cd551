import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { deleteLocation, updateLocation } from '@whistle/api-client';
import { Spinner, TableScroll, useDocumentTitle } from '@whistle/ui';
import { useStaffSession, useStaffState } from '@whistle/ui/staff';
import { LabelDeleteDialog, useLabelActions } from './label-actions';
import { RowMenu } from './row-menu.component';

type CompanyLocation = NonNullable<ReturnType<typeof useStaffState>>['company']['locations'][number];

/** /company/settings/locations (ADMIN): where reports can say something happened. */
export function LocationsPage() {
  const { t } = useTranslation('settings');
  const session = useStaffSession();
  const state = useStaffState();
  const actions = useLabelActions<CompanyLocation>();
  useDocumentTitle(t('locations.title'));
  if (!state) return <Spinner />;

  const toggle = (location: CompanyLocation) =>
    actions.run(location, async () => {
      await updateLocation(session.api, location.uuid, { name: location.name, is_active: !location.is_active });
      return t('locations.edited');
    });
  const confirmDelete = (location: CompanyLocation) =>
    actions.confirmDelete(location, async () => {
      const { outcome } = await deleteLocation(session.api, location.uuid);
      return outcome === 'deleted' ? t('locations.deleted') : t('locations.deactivated');
    });

  return (
    <>
      <h1>{t('locations.title')}</h1>
      <p>{t('locations.intro')}</p>
      <div className="wh-actions">
        <Link className="wh-button wh-button--primary" to="/company/settings/locations/add">
          {t('locations.add')}
        </Link>
      </div>
      <TableScroll label={t('locations.title')}>
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
                  <RowMenu
                    name={location.name}
                    editTo={`/company/settings/locations/edit/${location.uuid}`}
                    active={location.is_active}
                    busy={actions.isBusy(location)}
                    onToggle={() => void toggle(location)}
                    onDelete={() => actions.askDelete(location)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <LabelDeleteDialog
        open={actions.deleting !== undefined}
        title={t('locations.deleteTitle', { name: actions.deleting?.name ?? '' })}
        inUse={t('locations.deleteInUse')}
        onConfirm={() => actions.deleting && confirmDelete(actions.deleting)}
        onCancel={actions.cancelDelete}
      />
      {actions.toast}
    </>
  );
}
