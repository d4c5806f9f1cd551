import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams, redirect, type ActionFunctionArgs } from 'react-router';
import {
  ApiError,
  getIncidentFile,
  listIncidentFiles,
  listIncidentMessages,
  sendIncidentMessage,
  type ApiClient,
} from '@whistle/api-client';
import type { IncidentMessage } from '@whistle/contracts';
import { decryptField, encryptField } from '@whistle/crypto';
import { Button, MessagePage, TextArea, Toast, useDocumentTitle } from '@whistle/ui';
import {
  FilePicker,
  formatFileSize,
  formatMessageTime,
  reportDetails,
  saveDecryptedFile,
  uploadAttachment,
  uploadFailureKey,
  useAttachments,
} from '@whistle/ui/report';
import {
  currentFailure,
  currentSession,
  forgetOutcome,
  keepFailure,
  keepSession,
  openDiscloserSession,
  OpenIncidentError,
  type DiscloserSession,
} from './discloser-session';

/** Spec §9: the thread is fetched again every 30 seconds. */
export const MESSAGE_POLL_MS = 30_000;

/** POST /disclose/{urlIdentifier}/review (the landing form): open the incident, then show it. */
export const reviewAction =
  (api: ApiClient) =>
  async ({ request, params }: ActionFunctionArgs) => {
    const urlIdentifier = params.urlIdentifier ?? '';
    const code = String((await request.formData()).get('uniquePassword') ?? '');
    // A new code replaces whatever the last one opened.
    forgetOutcome();
    try {
      keepSession(await openDiscloserSession(api, urlIdentifier, code));
    } catch (error) {
      keepFailure(urlIdentifier, error instanceof OpenIncidentError ? error.reason : 'unexpected');
    }
    // A GET of the same page afterwards: reloading it does not post the code again.
    return redirect(`/disclose/${encodeURIComponent(urlIdentifier)}/review`);
  };

/** The session token lasts 30 minutes: afterwards the secret code has to be entered again. */
const endedBy = (error: unknown) => error instanceof ApiError && (error.status === 401 || error.status === 403);

interface ShownFile {
  uuid: string;
  messageUuid: string | null;
  size: number;
  /** null until decrypted; '' when it could not be. */
  name: string | null;
}

interface ShownMessage {
  message: IncidentMessage;
  text: string | null;
}

function FileList({ files, session }: { files: ShownFile[]; session: DiscloserSession }) {
  const { t, i18n } = useTranslation('disclose');
  const [failed, setFailed] = useState<string | null>(null);
  async function download(file: ShownFile) {
    setFailed(null);
    try {
      await saveDecryptedFile(session.api, session.handle, file.uuid);
    } catch {
      setFailed(file.uuid);
    }
  }
  if (files.length === 0) return null;
  return (
    <ul className="wh-files">
      {files.map((file) => (
        <li key={file.uuid}>
          <span className="wh-files__name">
            {file.name === null ? t('review.decrypting') : file.name || t('review.undecryptable')}
          </span>
          <span className="wh-files__size">{formatFileSize(file.size, i18n.language)}</span>
          <Button variant="secondary" onClick={() => download(file)}>
            {t('review.download')}
            <span className="wh-visually-hidden"> {file.name}</span>
          </Button>
          {failed === file.uuid && (
            <span className="wh-field__error" role="alert">
              {t('review.downloadFailed')}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}

function IncidentReview({ session }: { session: DiscloserSession }) {
  const { t, i18n } = useTranslation(['disclose', 'common']);
  const title = t('review.title', { number: session.incident.display_report_number });
  useDocumentTitle(title);
  const [messages, setMessages] = useState<ShownMessage[] | null>(null);
  const [files, setFiles] = useState<ShownFile[]>([]);
  const [loadFailed, setLoadFailed] = useState(false);
  const [ended, setEnded] = useState(false);
  const [text, setText] = useState('');
  const attachments = useAttachments();
  const [sending, setSending] = useState(false);
  const [toast, setToast] = useState<{ status: 'success' | 'error'; text: string } | null>(null);

  const load = useCallback(async () => {
    const { api, handle, incident } = session;
    try {
      const [thread, fileList] = await Promise.all([
        listIncidentMessages(api, incident.uuid),
        listIncidentFiles(api, incident.uuid),
      ]);
      setLoadFailed(false);
      setMessages((previous) =>
        thread.map((message) => ({
          message,
          text: previous?.find((shown) => shown.message.uuid === message.uuid)?.text ?? null,
        })),
      );
      setFiles((previous) =>
        fileList.map((file) => ({
          uuid: file.uuid,
          messageUuid: file.incident_message_uuid,
          size: file.file_size,
          name: previous.find((shown) => shown.uuid === file.uuid)?.name ?? null,
        })),
      );
      // Decrypted in the background: the thread shows at once, each text as it is ready.
      const decrypt = (ciphertext: string) => decryptField(handle, ciphertext).catch(() => '');
      void Promise.all(
        thread.map(async (message) => {
          const plain = await decrypt(message.content);
          setMessages(
            (shown) =>
              shown?.map((item) => (item.message.uuid === message.uuid ? { ...item, text: plain } : item)) ?? shown,
          );
        }),
      );
      void Promise.all(
        fileList.map(async (file) => {
          const name = await getIncidentFile(api, file.uuid)
            .then((meta) => decrypt(meta.file_name))
            .catch(() => '');
          setFiles((shown) =>
            shown.map((item) => (item.uuid === file.uuid && item.name === null ? { ...item, name } : item)),
          );
        }),
      );
    } catch (error) {
      if (endedBy(error)) setEnded(true);
      else setLoadFailed(true);
    }
  }, [session]);

  useEffect(() => {
    if (ended) return undefined;
    // load() sets state only after its awaits (fetching the thread); the rule cannot see past them.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void load();
    const timer = setInterval(() => void load(), MESSAGE_POLL_MS);
    return () => clearInterval(timer);
  }, [load, ended]);

  async function send(event: FormEvent) {
    event.preventDefault();
    // Spec §4: an empty message does nothing.
    if (!text.trim() || sending) return;
    setSending(true);
    try {
      const content = await encryptField(session.handle.publicKey, text);
      const message = await sendIncidentMessage(session.api, { incident_uuid: session.incident.uuid, content });
      // The message is sent: a file refused now (a limit, too many files) must not read as a failed message.
      let refusedFile: string | undefined;
      for (const file of attachments.loaded) {
        try {
          await uploadAttachment(session.api, session.handle, session.incident.uuid, message.uuid, file, (progress) =>
            attachments.setProgress(file.id, progress),
          );
        } catch (error) {
          if (endedBy(error)) throw error;
          refusedFile = uploadFailureKey(error);
          break;
        }
      }
      setText('');
      attachments.clear();
      await load();
      setToast(
        refusedFile
          ? { status: 'error', text: t(refusedFile, { ns: 'common' }) }
          : { status: 'success', text: t('review.updated') },
      );
    } catch (error) {
      if (endedBy(error)) setEnded(true);
      else if (error instanceof ApiError && error.status === 429)
        setToast({ status: 'error', text: t('review.tooManyMessages') });
      else setToast({ status: 'error', text: t('review.sendFailed') });
    } finally {
      setSending(false);
    }
  }

  if (ended) {
    return (
      <article className="wh-card">
        <MessagePage title={t('review.ended.title')} role="alert">
          <p>{t('review.ended.description')}</p>
          <Link className="wh-button wh-button--primary" to=".." relative="path">
            {t('review.errors.back')}
          </Link>
        </MessagePage>
      </article>
    );
  }

  const yesNo = (value: string) => (value === 'yes' ? t('create.yes') : value === 'no' ? t('create.no') : value);
  const details = reportDetails(
    { fields: session.fields, categories: session.incident.categories, location: session.incident.location },
    i18n.language,
    yesNo,
  );
  const reportFiles = files.filter((file) => file.messageUuid === null);

  return (
    <article className="wh-card disclose-review">
      <h1>{title}</h1>
      <p className="disclose-review__status">
        {t('review.status')}: <strong>{t(`review.statuses.${session.incident.status.name}`)}</strong>
      </p>
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
          <h2 id="report-files">{t('review.files')}</h2>
          <FileList files={reportFiles} session={session} />
        </section>
      )}
      <section aria-labelledby="thread-title" className="disclose-thread">
        <h2 id="thread-title">{t('review.messages')}</h2>
        {loadFailed && (
          <p className="wh-alert" role="alert">
            {t('review.loadFailed')}
          </p>
        )}
        {messages?.length === 0 && <p>{t('review.noMessages')}</p>}
        <ol className="disclose-thread__list">
          {messages?.map(({ message, text: plain }) => (
            <li
              key={message.uuid}
              className={`disclose-message disclose-message--${message.sender.source === 'DISCLOSER' ? 'own' : 'other'}`}
            >
              <p className="disclose-message__meta">
                <strong>
                  {message.sender.source === 'DISCLOSER'
                    ? t('review.sentBy', { name: message.sender.name })
                    : t('review.receivedFrom', { name: message.sender.name })}
                </strong>{' '}
                <time dateTime={message.created}>{formatMessageTime(message.created, i18n.language)}</time>
              </p>
              <p className="disclose-message__text">
                {plain === null ? t('review.decrypting') : plain || t('review.undecryptable')}
              </p>
              <FileList files={files.filter((file) => file.messageUuid === message.uuid)} session={session} />
            </li>
          ))}
        </ol>
        <form onSubmit={send} className="disclose-reply" aria-busy={sending || undefined}>
          <TextArea
            name="text"
            label={t('review.message')}
            rows={4}
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
          <FilePicker
            files={attachments.files}
            onChange={attachments.setFiles}
            label={t('review.attach')}
            disabled={sending}
          />
          <div className="wh-actions">
            <Button type="submit" busy={sending} disabled={attachments.loading}>
              {sending ? t('review.loading') : t('review.send')}
            </Button>
          </div>
        </form>
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
  const { t } = useTranslation('disclose');
  const { urlIdentifier = '' } = useParams();
  const session = currentSession(urlIdentifier);
  const failure = currentFailure(urlIdentifier);
  if (session) return <IncidentReview key={session.incident.uuid} session={session} />;
  if (!failure) return <Navigate to=".." relative="path" replace />;
  return (
    <article className="wh-card">
      <MessagePage title={t(`review.errors.${failure}.title`)} role="alert">
        <p>{t(`review.errors.${failure}.description`)}</p>
        <Link className="wh-button wh-button--primary" to=".." relative="path" onClick={forgetOutcome}>
          {t('review.errors.back')}
        </Link>
      </MessagePage>
    </article>
  );
}
