import { useTranslation } from 'react-i18next';
import { Spinner, TextField, useDocumentTitle } from '@whistle/ui';
import { useStaffState } from '@whistle/ui/staff';

/**
 * /company/incidents. The staff list needs an incident list endpoint that does not exist yet; until
 * then the page says where reports will appear and gives the link employees report through.
 */
export function IncidentListPage() {
  const { t } = useTranslation('incidents');
  const state = useStaffState();
  useDocumentTitle(t('list.title'));
  const link = state && `${window.location.origin}/disclose/${encodeURIComponent(state.company.url_identifier)}`;
  return (
    <>
      <h1>{t('list.title')}</h1>
      <section className="wh-card wh-stack" aria-labelledby="incidents-empty">
        <h2 id="incidents-empty">{t('list.emptyTitle')}</h2>
        <p>{t('list.emptyDescription')}</p>
        {link ? (
          <TextField
            name="disclosure_link"
            label={t('list.linkLabel')}
            value={link}
            readOnly
            onFocus={(event) => event.currentTarget.select()}
          />
        ) : (
          <Spinner />
        )}
      </section>
    </>
  );
}
