import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { deleteSavedView, listSavedViews, saveView, type StaffSession } from '@whistle/api-client';
import { SAVED_VIEW_NAME_MAX, SAVED_VIEWS_PER_PERSON, type SavedView } from '@whistle/contracts';
import { Button, TextField, useLoad } from '@whistle/ui';
import { savedViewFiltersOf, savedViewSearchOf } from './list-query';

type ViewError = 'name' | 'tooLong' | 'duplicate' | 'limit' | 'filters' | 'saveFailed' | 'deleteFailed';

/**
 * Saved views (issue 23 item 2): the person's own named filter sets, each a link that opens the list filtered so,
 * and saving the filters on screen under a name. Kept by the incident service, for this person only; a view holds
 * the list's parameters, never a case's content.
 */
export function SavedViews({ session }: { session: StaffSession }) {
  const { t } = useTranslation('incidents');
  const [params] = useSearchParams();
  const {
    data: views,
    error: loadError,
    reload,
  } = useLoad((signal) => listSavedViews(session.api, signal), [session], {
    shows: () => true,
  });
  const [name, setName] = useState('');
  const [error, setError] = useState<ViewError | null>(null);
  const [busy, setBusy] = useState(false);
  const current = savedViewFiltersOf(params);
  const currentSearch = current && savedViewSearchOf(current);

  async function changing(change: () => Promise<ViewError | void>, failure: ViewError) {
    setError(null);
    setBusy(true);
    try {
      const refused = await change();
      if (refused) return setError(refused);
      await reload();
    } catch {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  const save = (event: FormEvent) => {
    event.preventDefault();
    return changing(async () => {
      const wanted = name.trim();
      if (!wanted) return 'name';
      if (wanted.length > SAVED_VIEW_NAME_MAX) return 'tooLong';
      if (!current) return 'filters';
      if (views?.some((view) => view.name === wanted)) return 'duplicate';
      if (views && views.length >= SAVED_VIEWS_PER_PERSON) return 'limit';
      await saveView(session.api, { name: wanted, filters: current });
      setName('');
    }, 'saveFailed');
  };

  const remove = (view: SavedView) =>
    changing(() => deleteSavedView(session.api, view.uuid).then(() => undefined), 'deleteFailed');

  return (
    <section className="wh-card wh-stack" aria-labelledby="saved-views">
      <h2 id="saved-views">{t('views.title')}</h2>
      {loadError !== undefined && (
        <p className="wh-alert" role="alert">
          {t('views.loadFailed')}
        </p>
      )}
      {/* A line held for what the views' answer shows, so the form and the list below do not move when it comes. */}
      {!views && loadError === undefined && (
        <p className="case-muted" aria-hidden="true">
          {'\u00a0'}
        </p>
      )}
      {views && views.length === 0 && <p className="case-muted">{t('views.none')}</p>}
      {views && views.length > 0 && (
        <ul className="case-links">
          {views.map((view) => {
            const search = savedViewSearchOf(view.filters);
            return (
              <li key={view.uuid}>
                <Link
                  to={`/company/incidents${search ? `?${search}` : ''}`}
                  aria-current={search === currentSearch ? 'page' : undefined}
                >
                  {view.name}
                </Link>{' '}
                <Button
                  variant="danger"
                  disabled={busy}
                  onClick={() => void remove(view)}
                  aria-label={t('views.deleteOne', { name: view.name })}
                >
                  {t('views.delete')}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      <form className="wh-stack" onSubmit={(event) => void save(event)} aria-label={t('views.formLabel')} noValidate>
        <TextField
          label={t('views.name')}
          name="saved_view_name"
          value={name}
          autoComplete="off"
          onChange={(event) => setName(event.target.value)}
          error={
            error
              ? t(`views.errors.${error}`, { max: error === 'limit' ? SAVED_VIEWS_PER_PERSON : SAVED_VIEW_NAME_MAX })
              : undefined
          }
        />
        <div className="wh-actions">
          <Button type="submit" variant="secondary" busy={busy}>
            {t('views.save')}
          </Button>
        </div>
      </form>
    </section>
  );
}
