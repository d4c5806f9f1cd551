import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { linkCase, listCases, unlinkCase } from '@whistle/api-client';
import { Button, TextField } from '@whistle/ui';
import { useStaffSession } from '@whistle/ui/staff';
import type { OpenedCase } from './use-case';

type LinkError = 'number' | 'notFound' | 'self' | 'failed';

/**
 * Cases about the same matter (issue 23 item 4): the linked cases this person may see, each a link, and linking by
 * report number (the list's number search finds it among the cases they may see) or unlinking. Both cases' trails
 * record it; the server checks that the person may see both.
 */
export function LinkedCases({ opened, onUpdated }: { opened: OpenedCase; onUpdated: () => Promise<void> }) {
  const { t } = useTranslation('incidents');
  const { api } = useStaffSession();
  const { view } = opened;
  const [number, setNumber] = useState('');
  const [error, setError] = useState<LinkError | null>(null);
  const [busy, setBusy] = useState(false);

  /** A change, then the case loaded again; `failed` when either fails. */
  async function changing(change: () => Promise<LinkError | void>) {
    setError(null);
    setBusy(true);
    try {
      const refused = await change();
      if (refused) return setError(refused);
      await onUpdated();
    } catch {
      setError('failed');
    } finally {
      setBusy(false);
    }
  }

  const link = (event: FormEvent) => {
    event.preventDefault();
    return changing(async () => {
      const wanted = Number(number.trim().replace(/^#/, ''));
      if (!Number.isInteger(wanted) || wanted < 1) return 'number';
      if (wanted === view.display_report_number) return 'self';
      // Among the cases this person may see, as the list's number search finds them.
      const other = (await listCases(api, { report_number: String(wanted) })).results[0];
      if (!other) return 'notFound';
      await linkCase(api, view.uuid, other.uuid);
      setNumber('');
    });
  };

  const unlink = (otherUuid: string) => changing(() => unlinkCase(api, view.uuid, otherUuid).then(() => undefined));

  return (
    <section className="wh-card wh-stack" aria-labelledby="case-links">
      <h2 id="case-links">{t('links.title')}</h2>
      {view.linked_cases.length === 0 ? (
        <p className="case-muted">{t('links.none')}</p>
      ) : (
        <ul className="case-links">
          {view.linked_cases.map((other) => (
            <li key={other.uuid}>
              <Link to={`/company/incidents/${other.uuid}`}>
                {t('detail.title', { number: other.display_report_number })}
              </Link>{' '}
              <span className="case-status">{t(`statuses.${other.status.name}`)}</span>{' '}
              <Button
                variant="secondary"
                disabled={busy}
                onClick={() => void unlink(other.uuid)}
                aria-label={t('links.unlinkOne', { number: other.display_report_number })}
              >
                {t('links.unlink')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form className="wh-stack" onSubmit={(event) => void link(event)} aria-label={t('links.formLabel')} noValidate>
        <TextField
          label={t('links.number')}
          name="linked_report_number"
          inputMode="numeric"
          value={number}
          onChange={(event) => setNumber(event.target.value)}
          error={error ? t(`links.errors.${error}`) : undefined}
        />
        <div className="wh-actions">
          <Button type="submit" variant="secondary" busy={busy}>
            {t('links.link')}
          </Button>
        </div>
      </form>
    </section>
  );
}
