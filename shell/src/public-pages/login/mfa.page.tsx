import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useSearchParams } from 'react-router';
import { navigateToUrl } from 'single-spa';
import { ApiError, answerMfaChallenge } from '@whistle/api-client';
import { Button, TextField, useAction, useDocumentTitle } from '@whistle/ui';
import { api } from '../../api';
import { readToken } from '../../session/token-storage';
import { completeSignIn, safeNextPath } from './sign-in';

const CODE_LENGTH = 6;

/** /company/login/mfa: the 6-digit code, sent by itself once complete; the session token is the challenge id. */
export function MfaPage() {
  const { t } = useTranslation('shell');
  const [searchParams] = useSearchParams();
  const next = safeNextPath(searchParams.get('next'));
  const [code, setCode] = useState('');
  const [invalid, setInvalid] = useState(false);
  const verification = useAction();
  const sent = useRef<string>(undefined);
  useDocumentTitle(t('mfa.title'));
  // Opened without a challenge (bookmark, another tab): there is nothing to answer.
  if (!readToken()) return <Navigate to="/company/login" replace />;

  async function send(value: string) {
    const challengeId = readToken();
    if (!challengeId || sent.current === value) return;
    sent.current = value;
    await verification.run(
      async () => navigateToUrl(await completeSignIn(await answerMfaChallenge(api, challengeId, value), next)),
      {
        recover: (caught) => {
          const wrongCode = caught instanceof ApiError && caught.status >= 400 && caught.status < 500;
          if (wrongCode) setInvalid(true);
          return wrongCode;
        },
        leaves: true,
      },
    );
  }

  function change(event: ChangeEvent<HTMLInputElement>) {
    const value = event.target.value.replace(/\D/g, '').slice(0, CODE_LENGTH);
    setCode(value);
    setInvalid(false);
    if (value.length === CODE_LENGTH) void send(value);
    else sent.current = undefined;
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (code.length === CODE_LENGTH) void send(code);
    else setInvalid(true);
  }

  return (
    <section className="wh-card" aria-labelledby="mfa-title">
      <h1 id="mfa-title">{t('mfa.title')}</h1>
      <p>{t('mfa.intro')}</p>
      <form noValidate onSubmit={submit} aria-busy={verification.busy || undefined}>
        <TextField
          name="challenge_code"
          label={t('mfa.code')}
          value={code}
          onChange={change}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={CODE_LENGTH}
          pattern="[0-9]{6}"
          required
          // The page asks for this one code and nothing else, right after the password: focus belongs here.
          // eslint-disable-next-line jsx-a11y/no-autofocus
          autoFocus
          error={invalid ? t('mfa.invalid') : undefined}
        />
        <div className="wh-actions">
          <Button type="submit" busy={verification.busy}>
            {t('mfa.submit')}
          </Button>
        </div>
      </form>
      <p>
        <Link to="/company/login">{t('mfa.backToLogin')}</Link>
      </p>
    </section>
  );
}
