import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { updateCase } from '@whistle/api-client';
import type { IncidentOutcome, IncidentStatus } from '@whistle/contracts';
import { encryptField } from '@whistle/crypto';
import { Button, SelectField, TextArea } from '@whistle/ui';
import { useStaffSession } from '@whistle/ui/staff';
import { INCIDENT_OUTCOMES, STATUS_TRANSITIONS } from '../case/case-vocabulary';
import type { OpenedCase } from './use-case';

type Closing = { to: 'CLOSED' | 'REOPENED' } | null;

/**
 * The status moves this case allows (docs/case-management.md): acknowledge, assess, investigate, and
 * close with an outcome and a motivation, or reopen with a motivation. Motivations are encrypted to the
 * incident key here; the discloser never sees them.
 */
export function CaseActions({ opened, onUpdated }: { opened: OpenedCase; onUpdated: () => Promise<void> }) {
  const { t } = useTranslation('incidents');
  const { api } = useStaffSession();
  const { view } = opened;
  const [closing, setClosing] = useState<Closing>(null);
  const [outcome, setOutcome] = useState<IncidentOutcome | ''>('');
  const [motivation, setMotivation] = useState('');
  const [errors, setErrors] = useState<{ outcome?: string; motivation?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);
  if (!view.permissions.update_status) return null;
  const moves = STATUS_TRANSITIONS[view.status.name];

  async function move(to: IncidentStatus, extra: { outcome?: IncidentOutcome; motivation?: string } = {}) {
    setBusy(true);
    try {
      await updateCase(api, view.uuid, { status: to as Exclude<IncidentStatus, 'NEW'>, ...extra });
      setClosing(null);
      setMotivation('');
      setOutcome('');
      await onUpdated();
    } catch {
      setErrors({ form: t('actions.failed') });
    } finally {
      setBusy(false);
    }
  }

  async function submitClosing(event: FormEvent) {
    event.preventDefault();
    if (!closing) return;
    const missing = {
      ...(closing.to === 'CLOSED' && !outcome ? { outcome: t('validation.required') } : {}),
      ...(!motivation.trim() ? { motivation: t('validation.required') } : {}),
    };
    setErrors(missing);
    if (Object.keys(missing).length > 0) return;
    const encrypted = await encryptField(opened.handle.publicKey, motivation.trim());
    await move(closing.to, {
      ...(closing.to === 'CLOSED' ? { outcome: outcome as IncidentOutcome } : {}),
      motivation: encrypted,
    });
  }

  return (
    <section className="wh-card wh-stack" aria-labelledby="case-actions">
      <h2 id="case-actions">{t('actions.title')}</h2>
      <div className="wh-actions">
        {moves
          .filter((to) => to !== 'CLOSED' && to !== 'REOPENED')
          .map((to) => (
            <Button
              key={to}
              variant={to === 'ACKNOWLEDGED' ? 'primary' : 'secondary'}
              busy={busy}
              onClick={() => move(to)}
            >
              {t(`actions.to.${to}`)}
            </Button>
          ))}
        {moves.includes('CLOSED') && (
          <Button variant="secondary" onClick={() => setClosing({ to: 'CLOSED' })}>
            {t('actions.to.CLOSED')}
          </Button>
        )}
        {moves.includes('REOPENED') && (
          <Button variant="secondary" onClick={() => setClosing({ to: 'REOPENED' })}>
            {t('actions.to.REOPENED')}
          </Button>
        )}
      </div>
      {closing && (
        <form onSubmit={submitClosing} className="wh-stack" aria-label={t(`actions.to.${closing.to}`)} noValidate>
          {closing.to === 'CLOSED' && (
            <SelectField
              name="outcome"
              label={t('actions.outcome')}
              placeholder={t('actions.chooseOutcome')}
              value={outcome}
              error={errors.outcome}
              onChange={(event) => setOutcome(event.target.value as IncidentOutcome)}
              options={INCIDENT_OUTCOMES.map((value) => ({ value, label: t(`outcomes.${value}`) }))}
            />
          )}
          <TextArea
            name="motivation"
            label={t('actions.motivation')}
            rows={3}
            value={motivation}
            error={errors.motivation}
            onChange={(event) => setMotivation(event.target.value)}
          />
          <p className="case-muted">{t('actions.motivationPrivate')}</p>
          <div className="wh-actions">
            <Button type="submit" busy={busy}>
              {t(`actions.confirm.${closing.to}`)}
            </Button>
            <Button variant="secondary" onClick={() => setClosing(null)}>
              {t('actions.cancel')}
            </Button>
          </div>
        </form>
      )}
      {errors.form && (
        <p className="wh-alert" role="alert">
          {errors.form}
        </p>
      )}
    </section>
  );
}
