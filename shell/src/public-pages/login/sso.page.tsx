import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { navigateToUrl } from 'single-spa';
import { ApiError, exchangeSsoCode, ssoRedirectUrl } from '@whistle/api-client';
import { Button, Spinner, TextField, useDocumentTitle, useFailure } from '@whistle/ui';
import { api } from '../../api';
import { completeSignIn, safeNextPath } from './sign-in';

/** Reasons the ACS or the redirect endpoint give (`?error=`), each with its own translated message. */
const ssoFailureReasons = ['sso_failed', 'no_account', 'sso_unavailable'] as const;

/**
 * /company/login/sso: the e-mail form is a real form POST (form-encoded) so the browser follows the
 * server's redirect to the identity provider; the provider's return lands here with `?code=` (spec §2), which is
 * exchanged in a POST body and taken out of the address bar at once.
 */
export function SsoPage() {
  const { t } = useTranslation('shell');
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  // Spec §2 brings the code in the query string: kept here, and out of the address bar at once (below).
  const [code] = useState(() => searchParams.get('code'));
  const next = safeNextPath(searchParams.get('next'));
  // The ACS sends the browser back here with the reason when the identity provider's answer was refused.
  const [failed, setFailed] = useState(searchParams.get('error') !== null);
  const reason = ssoFailureReasons.find((known) => known === searchParams.get('error'));
  const fail = useFailure();
  const exchanged = useRef(false);
  useDocumentTitle(t('sso.title'));

  useEffect(() => {
    if (!searchParams.has('code')) return;
    const rest = new URLSearchParams(searchParams);
    rest.delete('code');
    const query = rest.toString();
    const search = query ? `?${query}` : '';
    void navigate({ pathname: location.pathname, search }, { replace: true, state: location.state });
  }, [searchParams, location.pathname, location.state, navigate]);

  useEffect(() => {
    // The code works once: never exchange it twice (React may run effects twice in development).
    if (!code || exchanged.current) return;
    exchanged.current = true;
    exchangeSsoCode(api, code)
      .then((answer) => completeSignIn(answer, next))
      .then(navigateToUrl, (caught: unknown) => {
        if (caught instanceof ApiError && caught.status >= 400 && caught.status < 500) setFailed(true);
        else fail(caught);
      });
  }, [code, next, fail]);

  if (code && !failed) return <Spinner />;
  return (
    <section className="wh-card" aria-labelledby="sso-title">
      <h1 id="sso-title">{t('sso.title')}</h1>
      <p>{t('sso.intro')}</p>
      {failed && (
        <p className="wh-alert" role="alert">
          {reason ? t(`sso.errors.${reason}`) : t('sso.failed')}
        </p>
      )}
      <form method="post" action={ssoRedirectUrl(api)}>
        <TextField name="email" type="email" label={t('login.email')} autoComplete="username" required />
        <div className="wh-actions">
          <Button type="submit">{t('sso.submit')}</Button>
        </div>
      </form>
      <p>
        <Link to="/company/login">{t('sso.backToLogin')}</Link>
      </p>
    </section>
  );
}
