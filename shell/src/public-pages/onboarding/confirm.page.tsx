import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ApiError, confirmCompany } from '@whistle/api-client';
import { Spinner, useAction, useDocumentTitle } from '@whistle/ui';
import { api } from '../../api';
import { readServerRejection } from './server-rejection';

type Refusal =
  'shell:confirm.invalid' | 'shell:onboarding.exists' | 'shell:onboarding.invalid' | 'shell:onboarding.closed';

/** The link's token, from the fragment of the address (a browser never sends a fragment to a server). */
function tokenInFragment(): string | undefined {
  return new URLSearchParams(window.location.hash.slice(1)).get('token') ?? undefined;
}

/**
 * /company/onboarding/confirm#token=…: the link e-mailed to the first admin at onboarding. Confirming makes the
 * company exist; the success page then hands out its disclosure link.
 */
export function ConfirmPage() {
  const { t } = useTranslation(['shell', 'common']);
  const navigate = useNavigate();
  const [token] = useState(tokenInFragment);
  const [refusal, setRefusal] = useState<Refusal | undefined>(token ? undefined : 'shell:confirm.invalid');
  const { run } = useAction();
  // One confirmation per visit (the link works once): StrictMode's second effect run must not send another.
  const sent = useRef(false);
  useDocumentTitle(t('confirm.title'));

  useEffect(() => {
    // The secret leaves the address bar (and so the history and any later Referer) at once.
    if (window.location.hash) window.history.replaceState(window.history.state, '', window.location.pathname);
    if (!token || sent.current) return;
    sent.current = true;
    void run(
      async () => {
        const { url_identifier } = await confirmCompany(api, token);
        await navigate(`/company/${encodeURIComponent(url_identifier)}/success`, {
          replace: true,
          state: { confirmed: true },
        });
      },
      {
        leaves: true,
        recover: (error) => {
          if (error instanceof ApiError && (error.status === 401 || error.status === 404)) {
            setRefusal('shell:confirm.invalid');
            return true;
          }
          const notice = readServerRejection(error)?.notice;
          if (notice) setRefusal(notice);
          return notice !== undefined;
        },
      },
    );
  }, [navigate, run, token]);

  return (
    <section className="wh-card wh-stack" aria-labelledby="confirm-title">
      <h1 id="confirm-title">{t('confirm.title')}</h1>
      {refusal ? (
        <>
          <p className="wh-alert" role="alert">
            {t(refusal)}
          </p>
          <p>
            <Link to="/company/onboarding">{t('confirm.registerAgain')}</Link> ·{' '}
            <Link to="/company/login">{t('success.login')}</Link>
          </p>
        </>
      ) : (
        <Spinner label={t('confirm.working')} />
      )}
    </section>
  );
}
