import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { navigateToUrl } from 'single-spa';
import { ApiError, login } from '@whistle/api-client';
import { Button, TextField, useAction, useDocumentTitle } from '@whistle/ui';
import { loadApplicationFor, preloadApplicationFor } from '../../applications';
import { api } from '../../api';
import { passwordSignIn, preloadPasswordKeys } from '../keys/password-keys';
import { staffSession } from '../../session/staff-session';
import { completeSignIn, isLegacyPasswordEnded, safeNextPath } from './sign-in';
import './login.css';

/** /company/login (and /): e-mail and password. */
export function LoginPage() {
  const { t } = useTranslation('shell');
  const [searchParams] = useSearchParams();
  const next = safeNextPath(searchParams.get('next'));
  const [error, setError] = useState<string>();
  const signIn = useAction();
  useDocumentTitle(t('login.title'));
  // What the sign-in needs next loads while the person types, once the page is idle: the derivation's code and the
  // page it leads to. On a slow network each is a round trip and tens of kilobytes that would start with the click.
  useEffect(() => {
    const preload = () => {
      preloadPasswordKeys();
      void preloadApplicationFor(new URL(next, window.location.origin).pathname);
    };
    if (typeof requestIdleCallback !== 'function') return void setTimeout(preload, 0);
    const idle = requestIdleCallback(preload, { timeout: 2000 });
    return () => cancelIdleCallback(idle);
  }, [next]);

  /** The refusals the page words; anything else is the page's failure. */
  function refused(caught: unknown) {
    if (isLegacyPasswordEnded(caught)) setError(t('login.legacyEnded'));
    else if (caught instanceof ApiError && (caught.status === 401 || caught.status === 400))
      setError(t('login.invalid'));
    else if (caught instanceof ApiError && caught.status === 429) setError(t('login.tooMany'));
    // The company lets its staff in only through its identity provider: the SSO link below is the way.
    else if (caught instanceof ApiError && caught.status === 403) setError(t('login.ssoRequired'));
    else return false;
    return true;
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get('email') ?? '').trim();
    const password = String(form.get('password') ?? '');
    setError(undefined);
    if (!email || !password) {
      setError(t('login.invalid'));
      return;
    }
    await signIn.run(
      async () => {
        // The password stays in the page and its worker: what goes is the secret derived from it (and the unlock key
        // stays too). While the worker derives, the page runs the code of the page the sign-in leads to.
        const landing = new URL(next, window.location.origin).pathname;
        const { body, unlockKey, kdfUpgrade } = await passwordSignIn(api, email, password, () => {
          void loadApplicationFor(landing);
        });
        const answer = await login(api, body);
        // Held only once the password proved right; run once the person is in (after the MFA code, if any).
        staffSession.holdKdfUpgrade(kdfUpgrade);
        navigateToUrl(await completeSignIn(answer, next, unlockKey));
      },
      { recover: refused, leaves: true },
    );
  }

  return (
    <section className="wh-card" aria-labelledby="login-title">
      <h1 id="login-title">{t('login.title')}</h1>
      <form noValidate onSubmit={(event) => void submit(event)} aria-busy={signIn.busy || undefined}>
        <TextField name="email" type="email" label={t('login.email')} autoComplete="username" required />
        <TextField
          name="password"
          type="password"
          label={t('login.password')}
          autoComplete="current-password"
          required
        />
        {error && (
          <p className="wh-alert" role="alert">
            {error}
          </p>
        )}
        <div className="wh-actions">
          <Button type="submit" busy={signIn.busy}>
            {t('login.submit')}
          </Button>
        </div>
      </form>
      <ul className="shell-login-links">
        <li>
          <Link to="/company/password/reset">{t('login.forgotPassword')}</Link>
        </li>
        <li>
          <Link to={`/company/login/sso?next=${encodeURIComponent(next)}`}>{t('login.sso')}</Link>
        </li>
      </ul>
    </section>
  );
}
