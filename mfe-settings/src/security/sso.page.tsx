import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { getSsoSettings, saveSsoSettings, ssoMetadataUrl, ssoRedirectUrl } from '@whistle/api-client';
import type { SsoSettingsResponse } from '@whistle/contracts';
import { Button, Spinner, TextArea, TextField, useDocumentTitle } from '@whistle/ui';
import { useStaffSession, useStaffState } from '@whistle/ui/staff';
import { fieldErrors, useSettingsToast } from '../settings-feedback';

type Field = 'entry_point' | 'idp_certificate' | 'email_attribute' | 'enabled' | 'require_sso';
type Errors = Partial<Record<Field, string>>;

/** The page's date and time, in the page language. */
const dateTime = (iso: string, language: string) =>
  new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

/**
 * /company/settings/sso (ADMIN): the company's SAML identity provider, what to give that IdP, whether SSO is
 * required of staff, and a real sign-in to try it first.
 */
export function SsoPage() {
  const { t, i18n } = useTranslation(['settings', 'common']);
  const session = useStaffSession();
  const state = useStaffState();
  const { toast, show } = useSettingsToast();
  const [settings, setSettings] = useState<SsoSettingsResponse>();
  /** When the settings were read: the certificate's expiry is judged against it (render stays pure). */
  const [readAt, setReadAt] = useState(0);
  const [enabled, setEnabled] = useState(false);
  const [requireSso, setRequireSso] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ error: unknown }>();
  const ids = { switchesError: useId(), enabledHelp: useId(), requireHelp: useId(), testIntro: useId() };
  useDocumentTitle(t('sso.title'));

  useEffect(() => {
    const controller = new AbortController();
    getSsoSettings(session.api, controller.signal).then(
      (loaded) => {
        setSettings(loaded);
        setReadAt(Date.now());
        setEnabled(loaded.enabled);
        setRequireSso(loaded.require_sso);
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setFailure({ error });
      },
    );
    return () => controller.abort();
  }, [session.api]);
  if (failure) throw failure.error;
  if (!settings || !state) return <Spinner />;

  /** Server messages the page knows are said in the page language; any other is shown as it came. */
  const say = (message: string | undefined) =>
    message === undefined ? undefined : t(`sso.errors.${message}`, { defaultValue: message });

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const values = new FormData(event.currentTarget);
    const wanted = {
      enabled,
      require_sso: enabled && requireSso,
      entry_point: String(values.get('entry_point') ?? '').trim(),
      idp_certificate: String(values.get('idp_certificate') ?? '').trim(),
      email_attribute: String(values.get('email_attribute') ?? '').trim(),
    };
    const required = t('common:validation.required');
    const missing: Errors = {
      entry_point: wanted.entry_point ? undefined : required,
      idp_certificate: wanted.idp_certificate ? undefined : required,
    };
    setErrors(missing);
    if (missing.entry_point || missing.idp_certificate) return;
    setBusy(true);
    try {
      const saved = await saveSsoSettings(session.api, wanted);
      setSettings(saved);
      setReadAt(Date.now());
      setEnabled(saved.enabled);
      setRequireSso(saved.require_sso);
      // The company's sso_enabled (staff state) follows the switch.
      await session.reloadStaff();
      show(t('updatedSettings'));
    } catch (error) {
      const serverErrors = fieldErrors(error);
      if (!serverErrors) setFailure({ error });
      else
        setErrors({
          entry_point: say(serverErrors.entry_point?.[0]),
          idp_certificate: say(serverErrors.idp_certificate?.[0]),
          email_attribute: say(serverErrors.email_attribute?.[0]),
          enabled: say(serverErrors.enabled?.[0]),
          require_sso: say(serverErrors.require_sso?.[0]),
        });
    } finally {
      setBusy(false);
    }
  }

  const { certificate, service_provider: sp } = settings;
  const expired = certificate ? new Date(certificate.valid_to).getTime() <= readAt : false;
  const switchesError = errors.enabled ?? errors.require_sso;
  // The redirect finds the company by the e-mail's domain: the admin's own address tries the company's IdP.
  const canTest = settings.configured && settings.enabled;
  return (
    <>
      <h1>{t('sso.title')}</h1>
      <p>{t('sso.intro')}</p>

      <section className="wh-card" aria-labelledby="sso-sp">
        <h2 id="sso-sp">{t('sso.spTitle')}</h2>
        <p>{t('sso.spIntro')}</p>
        <dl className="settings-facts">
          <dt>{t('sso.entityId')}</dt>
          <dd>
            <code>{sp.entity_id}</code>
          </dd>
          <dt>{t('sso.acsUrl')}</dt>
          <dd>
            <code>{sp.acs_url}</code>
          </dd>
        </dl>
        <p>
          <a href={ssoMetadataUrl(session.api)} download="whistle-sp-metadata.xml">
            {t('sso.downloadMetadata')}
          </a>
        </p>
      </section>

      <form className="wh-card" noValidate onSubmit={(event) => void save(event)} aria-busy={busy || undefined}>
        <h2>{t('sso.idpTitle')}</h2>
        <TextField
          name="entry_point"
          type="url"
          label={t('sso.entryPoint')}
          defaultValue={settings.entry_point}
          placeholder="https://"
          required
          error={errors.entry_point}
        />
        <p className="settings-muted settings-help">{t('sso.entryPointHelp')}</p>
        <TextArea
          name="idp_certificate"
          label={t('sso.certificate')}
          defaultValue={settings.idp_certificate}
          rows={8}
          spellCheck={false}
          autoCapitalize="off"
          className="settings-pem"
          required
          error={errors.idp_certificate}
        />
        <p className="settings-muted settings-help">{t('sso.certificateHelp')}</p>
        {certificate ? (
          <section aria-labelledby="sso-certificate" className="settings-certificate">
            <h3 id="sso-certificate">{t('sso.certificateSaved')}</h3>
            <dl className="settings-facts">
              <dt>{t('sso.certificateSubject')}</dt>
              <dd>{certificate.subject}</dd>
              <dt>{t('sso.certificateIssuer')}</dt>
              <dd>{certificate.issuer}</dd>
              <dt>{t('sso.certificateValidFrom')}</dt>
              <dd>{dateTime(certificate.valid_from, i18n.language)}</dd>
              <dt>{t('sso.certificateValidTo')}</dt>
              <dd>{dateTime(certificate.valid_to, i18n.language)}</dd>
              <dt>{t('sso.certificateFingerprint')}</dt>
              <dd>
                <code className="settings-id">{certificate.fingerprint_sha256}</code>
              </dd>
            </dl>
            {expired && (
              <p className="wh-alert" role="alert">
                {t('sso.certificateExpired')}
              </p>
            )}
          </section>
        ) : (
          settings.configured && (
            <p className="wh-alert" role="alert">
              {t('sso.certificateUnreadable')}
            </p>
          )
        )}
        <TextField
          name="email_attribute"
          label={t('sso.emailAttribute')}
          defaultValue={settings.email_attribute}
          autoCapitalize="off"
          spellCheck={false}
          error={errors.email_attribute}
        />
        <p className="settings-muted settings-help">{t('sso.emailAttributeHelp')}</p>
        <fieldset
          className="settings-checks"
          aria-describedby={switchesError ? ids.switchesError : undefined}
          aria-invalid={switchesError ? true : undefined}
        >
          <legend>{t('sso.switches')}</legend>
          <label>
            <input
              type="checkbox"
              role="switch"
              name="enabled"
              checked={enabled}
              aria-describedby={ids.enabledHelp}
              onChange={(event) => {
                setEnabled(event.currentTarget.checked);
                // Requiring an IdP that is switched off would shut reviewers and handlers out.
                if (!event.currentTarget.checked) setRequireSso(false);
              }}
            />
            {t('sso.enabled')}
          </label>
          <p className="settings-muted settings-help" id={ids.enabledHelp}>
            {t('sso.enabledHelp')}
          </p>
          <label>
            <input
              type="checkbox"
              role="switch"
              name="require_sso"
              checked={requireSso}
              disabled={!enabled}
              aria-describedby={ids.requireHelp}
              onChange={(event) => setRequireSso(event.currentTarget.checked)}
            />
            {t('sso.requireSso')}
          </label>
          <p className="settings-muted settings-help" id={ids.requireHelp}>
            {t('sso.requireSsoHelp')}
          </p>
          {switchesError && (
            <p className="wh-field__error" id={ids.switchesError}>
              {switchesError}
            </p>
          )}
        </fieldset>
        <div className="wh-actions">
          <Button type="submit" busy={busy}>
            {t('sso.save')}
          </Button>
        </div>
      </form>

      {/* A real browser form: the server answers 303 to the IdP, which must happen as a navigation, in a new tab. */}
      <form
        className="wh-card"
        method="post"
        action={ssoRedirectUrl(session.api)}
        target="_blank"
        aria-labelledby="sso-test"
        aria-describedby={ids.testIntro}
      >
        <h2 id="sso-test">{t('sso.testTitle')}</h2>
        <p id={ids.testIntro}>
          {t('sso.testIntro', { email: state.profile.email })} {!canTest && <strong>{t('sso.testNeedsSave')}</strong>}
        </p>
        <input type="hidden" name="email" value={state.profile.email} />
        <div className="wh-actions">
          <Button type="submit" variant="secondary" disabled={!canTest}>
            {t('sso.testButton')} <span className="settings-muted">{t('sso.opensInNewTab')}</span>
          </Button>
        </div>
      </form>
      {toast}
    </>
  );
}
