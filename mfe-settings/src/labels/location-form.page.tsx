import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { createLocation, updateLocation } from '@whistle/api-client';
import { Button, Spinner, TextField, useDocumentTitle } from '@whistle/ui';
import { useStaffSession, useStaffState } from '@whistle/ui/staff';
import { fieldErrors, type ToastState } from '../settings-feedback';

const LIST_PATH = '/company/settings/locations';

/** /company/settings/locations/add and …/edit/{locationUUID} (ADMIN): a location's name (required). */
export function LocationFormPage() {
  const { t } = useTranslation(['settings', 'common']);
  const { locationUuid } = useParams();
  const session = useStaffSession();
  const state = useStaffState();
  const navigate = useNavigate();
  const [nameError, setNameError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ error: unknown }>();
  const title = locationUuid ? t('locationForm.editTitle') : t('locationForm.addTitle');
  useDocumentTitle(title);
  if (failure) throw failure.error;
  if (!state) return <Spinner />;
  const editing = locationUuid ? state.company.locations.find((location) => location.uuid === locationUuid) : undefined;
  if (locationUuid && !editing)
    return (
      <>
        <h1>{title}</h1>
        <p className="wh-alert" role="alert">
          {t('locationForm.notFound')}
        </p>
        <Link to={LIST_PATH}>{t('locationForm.back')}</Link>
      </>
    );

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get('name') ?? '').trim();
    setNameError(name ? undefined : t('common:validation.required'));
    if (!name) return;
    setBusy(true);
    try {
      if (locationUuid) await updateLocation(session.api, locationUuid, { name });
      else await createLocation(session.api, { name });
      await session.reloadStaff();
      const toast: ToastState = { toast: locationUuid ? t('locations.edited') : t('locations.added') };
      await navigate(LIST_PATH, { state: toast });
    } catch (error) {
      const errors = fieldErrors(error);
      if (!errors) setFailure({ error });
      else setNameError(errors.name?.[0] ?? t('locationForm.refused'));
      setBusy(false);
    }
  }

  return (
    <>
      <h1>{title}</h1>
      <form className="wh-card" noValidate onSubmit={(event) => void save(event)} aria-busy={busy || undefined}>
        <TextField name="name" label={t('locations.name')} defaultValue={editing?.name} required error={nameError} />
        <div className="wh-actions">
          <Button type="submit" busy={busy}>
            {t('actions.save')}
          </Button>
          <Link className="wh-button wh-button--secondary" to={LIST_PATH}>
            {t('actions.cancel')}
          </Link>
        </div>
      </form>
    </>
  );
}
