import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { sendStaffMessage } from '@whistle/api-client';
import { encryptField } from '@whistle/crypto';
import { Button, TextArea } from '@whistle/ui';
import { FilePicker, formatMessageTime, uploadAttachment, uploadFailureKey, useAttachments } from '@whistle/ui/report';
import { useStaffSession } from '@whistle/ui/staff';
import { CaseFiles } from './case-files.component';
import type { OpenedCase } from './use-case';

/**
 * The conversation with the reporter: their messages and the staff's replies, decrypted here; a reply (with
 * files) is encrypted to the incident key before it leaves, and may be marked as the feedback the directive
 * requires within three months.
 */
export function Thread({ opened, onUpdated }: { opened: OpenedCase; onUpdated: () => Promise<void> }) {
  const { t, i18n } = useTranslation(['incidents', 'common']);
  const { api } = useStaffSession();
  const [text, setText] = useState('');
  const [feedback, setFeedback] = useState(false);
  const [sending, setSending] = useState(false);
  const [failed, setFailed] = useState(false);
  /** The reply went out but a file was refused: why (a `common` key). */
  const [refusedFile, setRefusedFile] = useState<string | null>(null);
  const attachments = useAttachments();
  const { view, messages, files } = opened;

  async function send(event: FormEvent) {
    event.preventDefault();
    // Spec §4: an empty message does nothing.
    if (!text.trim() || sending) return;
    setSending(true);
    setFailed(false);
    setRefusedFile(null);
    try {
      const content = await encryptField(opened.handle.publicKey, text);
      const message = await sendStaffMessage(api, { incident_uuid: view.uuid, content, feedback });
      for (const file of attachments.loaded) {
        try {
          await uploadAttachment(opened.filesApi, opened.handle, view.uuid, message.uuid, file, (progress) =>
            attachments.setProgress(file.id, progress),
          );
        } catch (error) {
          // The reply is sent: say why the file was not attached rather than that the reply failed.
          setRefusedFile(uploadFailureKey(error));
          break;
        }
      }
      setText('');
      setFeedback(false);
      attachments.clear();
      await onUpdated();
    } catch {
      setFailed(true);
    } finally {
      setSending(false);
    }
  }

  return (
    <section className="wh-card wh-stack" aria-labelledby="case-thread">
      <h2 id="case-thread">{t('thread.title')}</h2>
      {messages.length === 0 && <p>{t('thread.empty')}</p>}
      <ol className="case-thread">
        {messages.map((message) => (
          <li
            key={message.uuid}
            className={`case-message case-message--${message.sender.source === 'STAFF' ? 'staff' : 'reporter'}`}
          >
            <p>
              <strong>
                {/* Spec §2: the viewer's own source (staff) is "sent by", the reporter's "received from". */}
                {message.sender.source === 'STAFF'
                  ? t('thread.sentBy', { name: message.sender.name })
                  : t('thread.receivedFrom', { name: message.sender.name })}
              </strong>{' '}
              <time dateTime={message.created}>{formatMessageTime(message.created, i18n.language)}</time>
              {message.feedback && <span className="case-status"> {t('thread.feedback')}</span>}
            </p>
            <p className="case-details">{message.text || t('thread.undecryptable')}</p>
            <CaseFiles files={files.filter((file) => file.messageUuid === message.uuid)} opened={opened} />
          </li>
        ))}
      </ol>
      {view.permissions.reply && (
        <form onSubmit={send} className="wh-stack" aria-busy={sending || undefined}>
          <TextArea
            name="reply"
            label={t('thread.reply')}
            rows={4}
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
          <FilePicker
            files={attachments.files}
            onChange={attachments.setFiles}
            label={t('thread.attach')}
            disabled={sending}
          />
          <label className="case-checkbox">
            <input type="checkbox" checked={feedback} onChange={(event) => setFeedback(event.target.checked)} />{' '}
            {t('thread.markFeedback')}
          </label>
          <div className="wh-actions">
            <Button type="submit" busy={sending} disabled={attachments.loading}>
              {sending ? t('thread.sending') : t('thread.send')}
            </Button>
          </div>
          {failed && (
            <p className="wh-alert" role="alert">
              {t('thread.sendFailed')}
            </p>
          )}
          {refusedFile && (
            <p className="wh-alert" role="alert">
              {t(refusedFile, { ns: 'common' })}
            </p>
          )}
        </form>
      )}
    </section>
  );
}
