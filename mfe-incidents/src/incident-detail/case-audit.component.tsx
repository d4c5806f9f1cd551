import { useTranslation } from 'react-i18next';
import { Button, formatDateTime, Spinner } from '@whistle/ui';
import { useAuditWords } from '@whistle/ui/staff';
import { CASE_AUDIT_PAGE_SIZE, useCaseAudit } from './use-case-audit';

/**
 * Who did what to this case and when, from the audit trail (admins only: the caller decides). Mounted
 * once the case is open, so its request never delays the case's decryption.
 */
export function CaseAuditTrail({ view }: { view: { uuid: string } }) {
  const { t, i18n } = useTranslation('incidents');
  const words = useAuditWords();
  const { state, more } = useCaseAudit(view);
  return (
    <section className="wh-stack" aria-labelledby="case-audit" aria-busy={state.phase === 'loading'}>
      <h3 id="case-audit">{t('history.trail')}</h3>
      {state.phase === 'loading' && <Spinner />}
      {state.phase === 'failed' && (
        <p className="wh-alert" role="alert">
          {t('history.trailFailed')}
        </p>
      )}
      {state.phase === 'loaded' && (
        <>
          {state.entries.length === 0 && <p className="case-muted">{t('history.trailEmpty')}</p>}
          <ol className="case-trail">
            {state.entries.map((entry) => (
              <li key={entry.uuid}>
                <strong>{words.action(entry.action)}</strong>
                {!entry.success && <span className="case-trail__failed">{t('history.refused')}</span>}{' '}
                <span className="case-muted">
                  {t('history.by', {
                    name: words.actor(entry.actor),
                    when: formatDateTime(entry.occurred_at, i18n.language),
                  })}
                </span>
              </li>
            ))}
          </ol>
          {state.moreFailed && (
            <p className="wh-alert" role="alert">
              {t('history.trailFailed')}
            </p>
          )}
          {state.page * CASE_AUDIT_PAGE_SIZE < state.count && (
            <div className="wh-actions">
              <Button variant="secondary" busy={state.loadingMore} onClick={() => void more()}>
                {t('history.more', { shown: state.entries.length, count: state.count })}
              </Button>
            </div>
          )}
        </>
      )}
    </section>
  );
}
