import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sendStaffMessage } from '@whistle/api-client';
import { ReplyForm, useReply, type UploadFailureKey } from '@whistle/ui/report';
import { useStaffSession } from '@whistle/ui/staff';
import { ReplyTemplatePicker, reporterLanguageOf } from './reply-templates.component';
import { fileSignerForDiscloser, signedForDiscloser } from './sign-for-discloser';
import type { OpenedCase } from './use-case';

/** What the last reply's sending said: it failed, or it went out but a file was refused (a `common` key). */
type SendProblem = { failed: true } | { refusedFile: UploadFailureKey };

/**
 * A reply to the reporter (the messages themselves are in the case's timeline): encrypted, with its files, to the
 * incident key before it leaves, and may be marked as the feedback the directive requires within three months.
 */
export function ReplyToReporter({ opened, onUpdated }: { opened: OpenedCase; onUpdated: () => Promise<void> }) {
  const { t } = useTranslation(['incidents', 'common']);
  const { api, keyring } = useStaffSession();
  const [feedback, setFeedback] = useState(false);
  const [problem, setProblem] = useState<SendProblem>();
  const { view } = opened;
  const reply = useReply({
    handle: opened.handle,
    from: 'staff',
    incidentUuid: view.uuid,
    filesApi: opened.filesApi,
    async post(content) {
      const signature = await signedForDiscloser(keyring, opened.handle.publicKey, content);
      return sendStaffMessage(api, {
        incident_uuid: view.uuid,
        content,
        feedback,
        ...(signature ? { signature } : {}),
      });
    },
    fileSigner: (reply) => fileSignerForDiscloser(keyring, opened.handle.publicKey, reply),
    onStart: () => setProblem(undefined),
    async onSent(refusedFile) {
      // The reply is sent: say why the file was not attached rather than that the reply failed.
      if (refusedFile) setProblem({ refusedFile });
      setFeedback(false);
      await onUpdated();
    },
    onFailed: () => setProblem({ failed: true }),
  });

  if (!view.permissions.reply) return null;
  return (
    <ReplyForm
      reply={reply}
      name="reply"
      words={{
        label: t('thread.reply'),
        attach: t('thread.attach'),
        send: t('thread.send'),
        sending: t('thread.sending'),
      }}
      notices={
        problem && (
          <p className="wh-alert" role="alert">
            {'failed' in problem ? t('thread.sendFailed') : t(problem.refusedFile, { ns: 'common' })}
          </p>
        )
      }
    >
      <ReplyTemplatePicker text={reply.text} onInsert={reply.setText} reporterLanguage={reporterLanguageOf(opened)} />
      <label className="case-checkbox">
        <input type="checkbox" checked={feedback} onChange={(event) => setFeedback(event.target.checked)} />{' '}
        {t('thread.markFeedback')}
      </label>
    </ReplyForm>
  );
}
