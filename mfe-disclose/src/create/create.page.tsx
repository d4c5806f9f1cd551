import { useEffect, useReducer, useRef, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker, useNavigate } from 'react-router';
import type { ApiClient } from '@whistle/api-client';
import { Button, ConfirmDialog, useDocumentTitle } from '@whistle/ui';
import { useCompany } from '../company/company.layout';
import { FilePicker, VoiceRecorder, useAttachments, useVoiceRecorder } from '@whistle/ui/report';
import { holdSubmission } from '../session/secret-code.store';
import { useUnloadWarning } from '../session/use-unload-warning';
import { dialCodeOf } from './dial-codes';
import { FollowUpFields } from './follow-up-fields.component';
import { IncidentFields } from './incident-fields.component';
import { MissingFieldsSummary, useMissingFields } from './missing-fields.component';
import { ReadersStep } from './readers-step.component';
import { someoneReads } from './report-readers';
import { ReporterFields } from './reporter-fields.component';
import { initialSubmission, submissionReducer } from './submission.reducer';
import { solveInBackground, type BackgroundProof } from './proof-of-work';
import { prepareReport, refusedFields, submitToCurrentKey, type ReadyReport } from './submit-report';
import { useIncidentCredentials } from './use-incident-credentials';
import { useReportForm } from './use-report-form';

/** Started with the form: whatever work the company's volume asks is done while the discloser writes. */
function useBackgroundProof(api: ApiClient, urlIdentifier: string) {
  const proof = useRef<BackgroundProof>(undefined);
  useEffect(() => {
    const started = solveInBackground({ api, urlIdentifier });
    proof.current = started;
    return () => started.stop();
  }, [api, urlIdentifier]);
  return proof;
}

/** /disclose/{urlIdentifier}/create: the report form (spec §3), encrypted in this browser before sending. */
export function CreatePage({ api }: { api: ApiClient }) {
  const company = useCompany();
  const { t, i18n } = useTranslation(['disclose', 'common']);
  const navigate = useNavigate();
  useDocumentTitle(t('create.title'));
  const report = useReportForm();
  const attachments = useAttachments();
  const voice = useVoiceRecorder();
  const { credentials, failed: credentialsFailed } = useIncidentCredentials(company);
  const [{ step, failed }, dispatch] = useReducer(submissionReducer, initialSubmission);
  const submitted = useRef(false);
  // The report as last sent, with the form and credentials it was made from: sending the same form again after a
  // failure reuses it (same bytes, same idempotency key), so a report stored whose answer was lost is not stored twice.
  const lastPrepared = useRef<ReadyReport & { form: typeof report.form }>(undefined);
  const missing = useMissingFields(report);
  const proof = useBackgroundProof(api, company.url_identifier);

  // Spec §4: leaving for anywhere but the create page asks first.
  const blocker = useBlocker(({ nextLocation }) => !submitted.current && !nextLocation.pathname.endsWith('/create'));
  useUnloadWarning(() => !submitted.current);

  const sending = step === 'sending';
  // Spec §4: submit waits for the credentials and for every file being read; and one reader must remain.
  const canSubmit =
    credentials !== null &&
    !attachments.loading &&
    !sending &&
    someoneReads(company, report.form.category_uuids, report.form.excluded_key_ids);

  // A voice recorded but not among the files stops sending too, until the discloser adds it or discards it; both
  // checks run, so that both are said (a missing field takes the focus).
  const readyToSend = () => [missing.isValid(), !voice.holdBack()].every(Boolean);

  function checkAndConfirm(event: FormEvent) {
    event.preventDefault();
    if (readyToSend()) dispatch('confirm');
  }

  async function send() {
    if (!credentials) return;
    dispatch('send');
    try {
      const { form } = report;
      const toSend = { ...form, phone_number_code: dialCodeOf(form.phone_number_code) };
      const language = i18n.resolvedLanguage ?? i18n.language;
      if (lastPrepared.current?.form !== form)
        lastPrepared.current = {
          form,
          credentials,
          prepared: await prepareReport({ company, credentials, form: toSend, language }),
        };
      const result = await submitToCurrentKey({
        api,
        company,
        report: lastPrepared.current,
        form: toSend,
        language,
        onRenewed: (renewed) => (lastPrepared.current = { form, ...renewed }),
        files: attachments.loaded,
        onFileProgress: attachments.setProgress,
        proof: proof.current,
        onFileRetry: attachments.setRetrying,
      });
      holdSubmission(result);
      submitted.current = true;
      navigate('../success', { replace: true, relative: 'path' });
    } catch (error) {
      const refused = refusedFields(error);
      if (refused) missing.show(refused);
      dispatch(refused ? 'refused' : 'fail');
    }
  }

  return (
    <article className="wh-card disclose-create">
      <h1>{t('create.title')}</h1>
      <p>{t('create.intro')}</p>
      <form noValidate onSubmit={checkAndConfirm} aria-busy={sending || undefined}>
        <ReporterFields form={report.form} set={report.set} />
        <IncidentFields form={report.form} errors={report.errors} set={report.set} company={company} />
        <FollowUpFields form={report.form} set={report.set} />
        <FilePicker
          files={attachments.files}
          onChange={attachments.setFiles}
          label={t('create.files')}
          disabled={sending}
          cleanMetadata
        />
        <VoiceRecorder recorder={voice} disabled={sending} onAdd={attachments.add} />
        <ReadersStep form={report.form} set={report.set} company={company} />
        {credentialsFailed && (
          <p className="wh-alert" role="alert">
            {t('create.credentialsFailed')}
          </p>
        )}
        {failed && (
          <p className="wh-alert" role="alert">
            {t('create.failed')}
          </p>
        )}
        <div className="wh-actions">
          <MissingFieldsSummary errors={report.errors} heldVoice={voice.heldBack ? voice.decisionId : undefined} />
          <Button type="submit" disabled={!canSubmit} busy={sending}>
            {sending ? t('common:loading') : t('create.submit')}
          </Button>
          {credentials === null && !credentialsFailed && <p role="status">{t('create.preparing')}</p>}
        </div>
      </form>
      <ConfirmDialog
        open={step === 'confirming' || blocker.state === 'blocked'}
        title={t('create.confirm.title')}
        confirmLabel={t('create.confirm.submit')}
        cancelLabel={t('create.confirm.back')}
        confirmDisabled={!canSubmit}
        onConfirm={() => {
          // Reached by leaving the page: the form is checked first, as by its submit button.
          if (blocker.state === 'blocked') {
            blocker.reset();
            if (!readyToSend()) return;
          }
          void send();
        }}
        onCancel={() => {
          dispatch('cancel');
          if (blocker.state === 'blocked') blocker.reset();
        }}
      />
    </article>
  );
}
