import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useBlocker, useNavigate } from 'react-router';
import { Button, ConfirmDialog, useDocumentTitle } from '@whistle/ui';
import { WhatHappensNext } from '../landing/what-happens-next.component';
import { forgetSubmission, peekSubmission } from '../session/secret-code.store';
import { useUnloadWarning } from '../session/use-unload-warning';
import { useCompany } from '../company/company.layout';
import { Receipt } from './receipt.component';
import { SecretCode } from './secret-code.component';

/** /disclose/{urlIdentifier}/success: the secret code, shown once (spec §2, §4). */
export function SuccessPage() {
  const { t } = useTranslation('disclose');
  useDocumentTitle(t('success.title'));
  const navigate = useNavigate();
  const company = useCompany();
  // Read once: the page keeps it while it is shown; leaving forgets it for good.
  const [submission] = useState(peekSubmission);
  const [saved, setSaved] = useState(false);
  const [asking, setAsking] = useState(false);
  const confirmed = useRef(false);
  // Spec §4: any way of leaving (Finish, back, a link) asks first.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      submission !== null && !confirmed.current && currentLocation.pathname !== nextLocation.pathname,
  );
  useUnloadWarning(() => submission !== null && !confirmed.current);

  if (!submission) return <Navigate to=".." relative="path" replace />;

  return (
    <article className="wh-card disclose-success">
      <h1>{t('success.title')}</h1>
      {/* The code first, whole in view on a small phone; what it is for just after. */}
      <SecretCode code={submission.secretCode} />
      <p>{t('success.intro')}</p>
      <p>
        {t('success.keepSafe')} {t('success.traces')}
      </p>
      {submission.failedFiles.length > 0 && (
        <p className="wh-alert" role="alert">
          {t('success.filesFailed', { names: submission.failedFiles.join(', ') })}
        </p>
      )}
      <Receipt companyName={company.name} secretCode={submission.secretCode} receipt={submission.receipt} />
      <WhatHappensNext />
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
