import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useParams, redirect, type ActionFunctionArgs } from 'react-router';
import { ApiError, approveRecord, sendIncidentMessage, type ApiClient } from '@whistle/api-client';
import { Button, MessagePage, Toast, useDocumentTitle } from '@whistle/ui';
import {
  MessageText,
  MessageThread,
  ReplyForm,
  StoredFiles,
  reportDetails,
  useReply,
  type ThreadMessage,
  type ThreadWords,
} from '@whistle/ui/report';
import { useCompany } from '../company/company.layout';
import { currentSession, forgetOutcome, keepFailure, keepSession } from '../session/status-outcome.store';
import { useUnloadWarning } from '../session/use-unload-warning';
import { CaseClocks } from './case-clocks.component';
import { openDiscloserSession, OpenIncidentError, type DiscloserSession } from './discloser-session';
import { endedBy, useDiscloserThread, type DiscloserFile } from './use-discloser-thread';

/**
 * POST /disclose/{urlIdentifier}/review (the landing form): open the incident, then show it. A code that opens
 * nothing goes back to the landing page, whose status form says why with the code as typed (no page of its own).
 */
export const reviewAction =
  (api: ApiClient) =>
  async ({ request, params }: ActionFunctionArgs) => {
    const urlIdentifier = params.urlIdentifier ?? '';
    const code = String((await request.formData()).get('uniquePassword') ?? '');
    const landing = `/disclose/${encodeURIComponent(urlIdentifier)}`;
    // A new code replaces whatever the last one opened.
    forgetOutcome();
    try {
      keepSession(await openDiscloserSession(api, urlIdentifier, code));
    } catch (error) {
      keepFailure(urlIdentifier, error instanceof OpenIncidentError ? error.reason : 'unexpected', code);
      return redirect(landing);
    }
    // A GET of the same page afterwards: reloading it does not post the code again.
    return redirect(`${landing}/review`);
  };

/** The discloser's files, with their words. */
function FileList({ files, session }: { files: readonly DiscloserFile[]; session: DiscloserSession }) {
  const { t } = useTranslation('disclose');
  return (
    <StoredFiles
      files={files}
      api={session.api}
      handle={session.handle}
      words={{
        decrypting: t('review.decrypting'),
        unverifiable: t('review.unverifiable'),
        download: t('review.download'),
        downloadFailed: t('review.downloadFailed'),
        unsignedFile: { title: t('review.unsignedFile.title'), explanation: t('review.unsignedFile.explanation') },
      }}
    />
  );
}

/** The report as the discloser sent it (spec §3 review order), and its files. */
function ReportDetails({ session, files }: { session: DiscloserSession; files: readonly DiscloserFile[] }) {
  const { t, i18n } = useTranslation('disclose');
  const yesNo = (value: string) => (value === 'yes' ? t('create.yes') : value === 'no' ? t('create.no') : value);
  const details = reportDetails(
    {
      fields: session.fields,
      categories: session.incident.categories,
      location: session.incident.location,
      unverifiable: { names: session.unverifiableFields, text: t('review.unverifiable') },
    },
    i18n.language,
    yesNo,
  );
  const reportFiles = files.filter((file) => file.messageUuid === null);
  return (
    <section aria-labelledby="report-details">
      <h2 id="report-details">{t('review.details')}</h2>
      <dl className="disclose-details">
        {details.map((row) => (
          <div key={row.name}>
            <dt>{t(`review.fields.${row.name}`)}</dt>
            <dd>{row.value}</dd>
          </div>
        ))}
      </dl>
      {reportFiles.length > 0 && (
        <section aria-labelledby="report-files">
          <h3 id="report-files">{t('review.files')}</h3>
          <FileList files={reportFiles} session={session} />
        </section>
      )}
    </section>
  );
}

/** The 30-minute session is over: the secret code opens the report again. */
function SessionEnded() {
  const { t } = useTranslation('disclose');
  return (
    <article className="wh-card">
      <MessagePage title={t('review.ended.title')} role="alert">
        <p>{t('review.ended.description')}</p>
        <Link className="wh-button wh-button--primary" to=".." relative="path">
          {t('review.ended.back')}
        </Link>
      </MessagePage>
    </article>
  );
}

/**
 * How a closed case ended, as the company wrote it to the reporter with the closing (its final message, which is
 * feedback under directive art. 9(1)(f)); the latest one when it was closed more than once.
 */
function FinalMessage({ messages, words }: { messages: readonly ThreadMessage[]; words: ThreadWords }) {
  const { t } = useTranslation('disclose');
  const final = messages.filter((message) => message.final && message.sender.source === 'STAFF').at(-1);
  if (!final) return null;
  return (
    <section aria-labelledby="final-message-title" className="disclose-final wh-stack">
      <h2 id="final-message-title">{t('review.finalMessage')}</h2>
      <MessageText message={final} words={words} className="disclose-final__text" />
    </section>
  );
}

type Notice = { status: 'success' | 'error'; text: string };

/**
 * A report the case team recorded from the reporter's telephone call or meeting (directive art. 18): the reporter
 * checks it above and approves it here, or writes to the team below what is wrong or missing.
 */
function RecordApprovalSection({ session }: { session: DiscloserSession }) {
  const { t, i18n } = useTranslation('disclose');
  const [approvedAt, setApprovedAt] = useState(session.incident.record_approved_at ?? null);
  const [state, setState] = useState<'idle' | 'sending' | 'failed'>('idle');
  if (!session.incident.recorded_by_staff) return null;
  const channel = session.incident.report_channel === 'internal' ? 'meeting' : 'telephone';
  async function approve() {
    setState('sending');
    try {
      const { record_approved_at: at } = await approveRecord(session.api, session.incident.uuid);
      // The kept session too: the page shown again from memory shows the approval.
      keepSession({ ...session, incident: { ...session.incident, record_approved_at: at } });
      setApprovedAt(at);
      setState('idle');
    } catch {
      setState('failed');
    }
  }
  return (
    <section aria-labelledby="record-approval-title" className="disclose-record wh-stack">
      <h2 id="record-approval-title">{t('review.record.title')}</h2>
      <p>{t(`review.record.recordedFrom.${channel}`)}</p>
      {approvedAt ? (
        <p role="status">
          {t('review.record.approved', {
            date: new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' }).format(new Date(approvedAt)),
          })}
        </p>
      ) : (
        <>
          <p>{t('review.record.check')}</p>
          <Button onClick={() => void approve()} disabled={state === 'sending'}>
            {t('review.record.approve')}
          </Button>
          {state === 'failed' && (
            <p className="wh-alert" role="alert">
              {t('review.record.failed')}
            </p>
          )}
        </>
      )}
    </section>
  );
}

function IncidentReview({ session }: { session: DiscloserSession }) {
  const { t } = useTranslation(['disclose', 'common']);
  const navigate = useNavigate();
  const title = t('review.title', { number: session.incident.display_report_number });
  useDocumentTitle(title);
  const [sendEnded, setSendEnded] = useState(false);
  const [toast, setToast] = useState<Notice | null>(null);
  const thread = useDiscloserThread(session, sendEnded, useCompany());
  const words: ThreadWords = {
    empty: t('review.noMessages'),
    sentBy: (name) => t('review.sentBy', { name }),
    receivedFrom: (name) => t('review.receivedFrom', { name }),
    decrypting: t('review.decrypting'),
    unverifiable: t('review.unverifiable'),
    feedback: t('review.feedback'),
    verified: t('review.verified'),
    unsigned: { title: t('review.unsigned.title'), explanation: t('review.unsigned.explanation') },
  };
  const reply = useReply({
    handle: session.handle,
    from: 'discloser',
    incidentUuid: session.incident.uuid,
    filesApi: session.api,
    post: (content) => sendIncidentMessage(session.api, { incident_uuid: session.incident.uuid, content }),
    endsSending: endedBy,
    // The message is sent: a file refused now (a limit, too many files) must not read as a failed message.
    async onSent(refusedFile) {
      await thread.reload();
      setToast(
        refusedFile
          ? { status: 'error', text: t(refusedFile, { ns: 'common' }) }
          : { status: 'success', text: t('review.updated') },
      );
    },
    onFailed(error) {
      if (endedBy(error)) setSendEnded(true);
      else if (error instanceof ApiError && error.status === 429)
        setToast({ status: 'error', text: t('review.tooManyMessages') });
      else setToast({ status: 'error', text: t('review.sendFailed') });
    },
  });
  // A voice recorded in the reply but not among its files would be lost with the tab: the browser asks first.
  useUnloadWarning(() => reply.voice.holding);
  if (thread.ended) return <SessionEnded />;

  return (
    <article className="wh-card disclose-review">
      <div className="disclose-review__heading">
        <h1>{title}</h1>
        <Button
          variant="secondary"
          onClick={() => {
            // The opened report leaves memory and the screen; back from the landing page finds nothing to show.
            forgetOutcome();
            navigate('..', { relative: 'path', replace: true });
          }}
        >
          {t('review.leave')}
        </Button>
      </div>
      <p className="disclose-review__status">
        {t('review.status')}: <strong>{t(`review.statuses.${session.incident.status.name}`)}</strong>
      </p>
      <CaseClocks incident={session.incident} messages={thread.messages} />
      {session.incident.status.name === 'CLOSED' && thread.messages && (
        <FinalMessage messages={thread.messages} words={words} />
      )}
      <ReportDetails session={session} files={thread.files} />
      <RecordApprovalSection session={session} />
      <section aria-labelledby="thread-title" className="wh-stack">
        <h2 id="thread-title">{t('review.messages')}</h2>
        {thread.loadFailed && (
          <p className="wh-alert" role="alert">
            {t('review.loadFailed')}
          </p>
        )}
        {thread.messages && (
          <MessageThread
            messages={thread.messages}
            ownSource="DISCLOSER"
            words={words}
            filesOf={(messageUuid) => (
              <FileList files={thread.files.filter((file) => file.messageUuid === messageUuid)} session={session} />
            )}
          />
        )}
        <ReplyForm
          reply={reply}
          name="text"
          cleanMetadata
          voice
          words={{
            label: t('review.message'),
            attach: t('review.attach'),
            send: t('review.send'),
            sending: t('review.loading'),
          }}
        />
      </section>
      {toast && (
        <Toast status={toast.status} onDismiss={() => setToast(null)} dismissLabel={t('review.closeNotice')}>
          {toast.text}
        </Toast>
      )}
    </article>
  );
}

/** /disclose/{urlIdentifier}/review: the incident opened with the secret code, and its thread. */
export function ReviewPage() {
  const { urlIdentifier = '' } = useParams();
  const session = currentSession(urlIdentifier);
  if (!session) return <Navigate to=".." relative="path" replace />;
  return <IncidentReview key={session.incident.uuid} session={session} />;
}
