import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { createLocation, fieldErrorsOf, updateLocation } from '@whistle/api-client';
import { Button, Spinner, TextField, useAction, useDocumentTitle } from '@whistle/ui';
import { type PageToastState, useStaffSession, useStaffState } from '@whistle/ui/staff';

const LIST_PATH = '/company/settings/locations';

/** /company/settings/locations/add and …/edit/{locationUUID} (ADMIN): a location's name (required). */
export function LocationFormPage() {
  const { t } = useTranslation(['settings', 'common']);
  const { locationUuid } = useParams();
  const session = useStaffSession();
  const state = useStaffState();
  const navigate = useNavigate();
  const [nameError, setNameError] = useState<string>();
  const save = useAction();
  const title = locationUuid ? t('locationForm.editTitle') : t('locationForm.addTitle');
  useDocumentTitle(title);
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

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get('name') ?? '').trim();
    setNameError(name ? undefined : t('common:validation.required'));
    if (!name) return;
    await save.run(
      async () => {
        if (locationUuid) await updateLocation(session.api, locationUuid, { name });
        else await createLocation(session.api, { name });
        await session.reloadStaff();
        const toast: PageToastState = { toast: locationUuid ? t('locations.edited') : t('locations.added') };
        await navigate(LIST_PATH, { state: toast });
      },
      {
        recover: (error) => {
          const errors = fieldErrorsOf(error);
          if (errors) setNameError(errors.name?.[0] ?? t('locationForm.refused'));
          return Boolean(errors);
        },
        leaves: true,
      },
    );
  }

  return (
    <>
      <h1>{title}</h1>
      <form className="wh-card" noValidate onSubmit={(event) => void submit(event)} aria-busy={save.busy || undefined}>
        <TextField name="name" label={t('locations.name')} defaultValue={editing?.name} required error={nameError} />
        <div className="wh-actions">
          <Button type="submit" busy={save.busy}>
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
