import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { updateCase } from '@whistle/api-client';
import type { IncidentOutcome, IncidentStatus, IncidentUpdateRequest } from '@whistle/contracts';
import { encryptContent, encryptNote } from '@whistle/crypto';
import { Button, SelectField, TextArea } from '@whistle/ui';
import { useStaffSession } from '@whistle/ui/staff';
import { INCIDENT_OUTCOMES, STATUS_TRANSITIONS } from '../case/case-vocabulary';
import { signedForDiscloser } from './sign-for-discloser';
import type { OpenedCase } from './use-case';

type Closing = { to: 'CLOSED' | 'REOPENED' } | null;
type Errors = { outcome?: string; motivation?: string; finalMessage?: string; form?: string };

/**
 * The status moves this case allows (docs/case-management.md): acknowledge, assess, investigate, and
 * close with an outcome and a motivation, or reopen with a motivation. Motivations are encrypted here like
 * notes, under the case's notes key; the discloser never sees them. Closing carries a final message to the reporter,
 * pre-filled from the outcome and encrypted here too: required while feedback is due (closing is no
 * feedback, directive art. 9(1)(f)), optional once it was given. It goes with the closing in one request.
 */
export function CaseActions({ opened, onUpdated }: { opened: OpenedCase; onUpdated: () => Promise<void> }) {
  const { t } = useTranslation('incidents');
  const { api, keyring } = useStaffSession();
  const { view } = opened;
  const [closing, setClosing] = useState<Closing>(null);
  const [outcome, setOutcome] = useState<IncidentOutcome | ''>('');
  const [motivation, setMotivation] = useState('');
  const [finalMessage, setFinalMessage] = useState('');
  // The pre-filled text follows the outcome until someone edits it.
  const [finalMessageEdited, setFinalMessageEdited] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  if (!view.permissions.update_status) return null;
  const moves = STATUS_TRANSITIONS[view.status.name];
  const feedbackDue = view.clocks.feedback.done_at === null;

  function chooseOutcome(next: IncidentOutcome | '') {
    setOutcome(next);
    if (!finalMessageEdited) setFinalMessage(next ? t(`actions.finalMessage.templates.${next}`) : '');
  }

  function startClosing(to: 'CLOSED' | 'REOPENED') {
    setErrors({});
    setClosing({ to });
  }

  async function move(
    to: IncidentStatus,
    extra: Pick<IncidentUpdateRequest, 'outcome' | 'motivation' | 'final_message' | 'final_message_signature'> = {},
  ) {
    setBusy(true);
    try {
      await updateCase(api, view.uuid, { status: to as Exclude<IncidentStatus, 'NEW'>, ...extra });
      setClosing(null);
      setMotivation('');
      setOutcome('');
      setFinalMessage('');
      setFinalMessageEdited(false);
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
    const closingCase = closing.to === 'CLOSED';
    const message = closingCase ? finalMessage.trim() : '';
    const missing: Errors = {
      ...(closingCase && !outcome ? { outcome: t('validation.required') } : {}),
      ...(!motivation.trim() ? { motivation: t('validation.required') } : {}),
      ...(closingCase && feedbackDue && !message ? { finalMessage: t('actions.finalMessage.required') } : {}),
    };
    setErrors(missing);
    if (Object.keys(missing).length > 0) return;
    const key = opened.handle.publicKey;
    // The server keeps the final message as a staff message of the thread: it is bound, and signed, as one.
    const final = message ? await encryptContent(key, message, { kind: 'message', from: 'staff' }) : undefined;
    const signature = final ? await signedForDiscloser(keyring, key, final) : undefined;
    await move(closing.to, {
      ...(closingCase ? { outcome: outcome as IncidentOutcome } : {}),
      // Staff-internal, like a note (the reporter's page never shows it): under the case's notes key.
      motivation: await encryptNote(opened.handle, motivation.trim(), 'motivation'),
      ...(final ? { final_message: final } : {}),
      ...(signature ? { final_message_signature: signature } : {}),
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
          <Button variant="secondary" onClick={() => startClosing('CLOSED')}>
            {t('actions.to.CLOSED')}
          </Button>
        )}
        {moves.includes('REOPENED') && (
          <Button variant="secondary" onClick={() => startClosing('REOPENED')}>
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
              onChange={(event) => chooseOutcome(event.target.value as IncidentOutcome | '')}
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
          {closing.to === 'CLOSED' && (
            <>
              <TextArea
                name="final_message"
                label={t(feedbackDue ? 'actions.finalMessage.label' : 'actions.finalMessage.labelOptional')}
                rows={5}
                value={finalMessage}
                error={errors.finalMessage}
                required={feedbackDue}
                onChange={(event) => {
                  setFinalMessage(event.target.value);
                  setFinalMessageEdited(true);
                }}
              />
              <p className="case-muted">{t(feedbackDue ? 'actions.finalMessage.due' : 'actions.finalMessage.given')}</p>
            </>
          )}
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
