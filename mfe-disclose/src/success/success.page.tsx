import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useBlocker, useNavigate } from 'react-router';
import { Button, ConfirmDialog, useDocumentTitle } from '@whistle/ui';
import { forgetSubmission, peekSubmission } from '../session/secret-code.store';
import { useUnloadWarning } from '../session/use-unload-warning';

/** /disclose/{urlIdentifier}/success: the secret code, shown once (spec §2, §4). */
export function SuccessPage() {
  const { t } = useTranslation('disclose');
  useDocumentTitle(t('success.title'));
  const navigate = useNavigate();
  // Read once: the page keeps it while it is shown; leaving forgets it for good.
  const [submission] = useState(peekSubmission);
  const [saved, setSaved] = useState(false);
  const [copied, setCopied] = useState(false);
  const [asking, setAsking] = useState(false);
  const confirmed = useRef(false);
  const codeId = useId();
  // Spec §4: any way of leaving (Finish, back, a link) asks first.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      submission !== null && !confirmed.current && currentLocation.pathname !== nextLocation.pathname,
  );
  useUnloadWarning(() => submission !== null && !confirmed.current);

  if (!submission) return <Navigate to=".." relative="path" replace />;

  async function copy() {
    try {
      await navigator.clipboard.writeText(submission!.secretCode);
      setCopied(true);
    } catch {
      // Without clipboard access the code stays selectable in its field.
      document.getElementById(codeId)?.focus();
    }
  }

  return (
    <article className="wh-card disclose-success">
      <h1>{t('success.title')}</h1>
      <p>{t('success.intro')}</p>
      <label className="wh-field__label" htmlFor={codeId}>
        {t('success.codeLabel')}
      </label>
      <div className="disclose-code">
        <input
          id={codeId}
          name="secret_code"
          className="wh-input disclose-code__value"
          readOnly
          value={submission.secretCode}
          autoComplete="off"
          spellCheck={false}
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button variant="secondary" onClick={copy}>
          {t('success.copy')}
        </Button>
      </div>
      <p role="status" className="disclose-code__copied">
        {copied ? t('success.copied') : ''}
      </p>
      <p>{t('success.keepSafe')}</p>
      {submission.failedFiles.length > 0 && (
        <p className="wh-alert" role="alert">
          {t('success.filesFailed', { names: submission.failedFiles.join(', ') })}
        </p>
      )}
      <div className="wh-actions">
        <Button onClick={() => setAsking(true)}>{t('success.finish')}</Button>
      </div>
      <ConfirmDialog
        open={asking || blocker.state === 'blocked'}
        title={t('success.confirm.title')}
        confirmLabel={t('success.confirm.finish')}
        cancelLabel={t('success.confirm.cancel')}
        confirmDisabled={!saved}
        onConfirm={() => {
          forgetSubmission();
          confirmed.current = true;
          if (blocker.state === 'blocked') blocker.proceed();
          else navigate('..', { relative: 'path' });
        }}
        onCancel={() => {
          setSaved(false);
          setAsking(false);
          if (blocker.state === 'blocked') blocker.reset();
        }}
      >
        <label className="disclose-toggle">
          <input
            type="checkbox"
            name="saved_secret_code"
            checked={saved}
            onChange={(event) => setSaved(event.target.checked)}
          />{' '}
          {t('success.confirm.saved')}
        </label>
      </ConfirmDialog>
    </article>
  );
}
