import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldErrorsOf, saveSsoSettings } from '@whistle/api-client';
import type { SsoSettingsResponse } from '@whistle/contracts';
import { Button, formatDateTime, TextArea, TextField, useAction } from '@whistle/ui';
import { useStaffSession } from '@whistle/ui/staff';

type Field = 'entry_point' | 'idp_certificate' | 'email_attribute' | 'enabled' | 'require_sso';
type Errors = Partial<Record<Field, string>>;

/** What the saved certificate says (subject, issuer, validity, fingerprint), and whether it has expired. */
function CertificateFacts({ settings, readAt }: { settings: SsoSettingsResponse; readAt: number }) {
  const { t, i18n } = useTranslation('settings');
  const { certificate } = settings;
  if (!certificate)
    return settings.configured ? (
      <p className="wh-alert" role="alert">
        {t('sso.certificateUnreadable')}
      </p>
    ) : null;
  const expired = new Date(certificate.valid_to).getTime() <= readAt;
  return (
    <section aria-labelledby="sso-certificate" className="settings-certificate">
      <h3 id="sso-certificate">{t('sso.certificateSaved')}</h3>
      <dl className="settings-facts">
        <dt>{t('sso.certificateSubject')}</dt>
        <dd>{certificate.subject}</dd>
        <dt>{t('sso.certificateIssuer')}</dt>
        <dd>{certificate.issuer}</dd>
        <dt>{t('sso.certificateValidFrom')}</dt>
        <dd>{formatDateTime(certificate.valid_from, i18n.language)}</dd>
        <dt>{t('sso.certificateValidTo')}</dt>
        <dd>{formatDateTime(certificate.valid_to, i18n.language)}</dd>
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
  );
}

/** Whether SSO is on, and whether staff must use it (only while it is on: reviewers and handlers keep a way in). */
function SsoSwitches({
  enabled,
  requireSso,
  error,
  onChange,
}: {
  enabled: boolean;
  requireSso: boolean;
  error: string | undefined;
  onChange(switches: { enabled: boolean; requireSso: boolean }): void;
}) {
  const { t } = useTranslation('settings');
  const ids = { error: useId(), enabledHelp: useId(), requireHelp: useId() };
  return (
    <fieldset
      className="settings-checks"
      aria-describedby={error ? ids.error : undefined}
      aria-invalid={error ? true : undefined}
    >
      <legend>{t('sso.switches')}</legend>
      <label>
        <input
          type="checkbox"
          role="switch"
          name="enabled"
          checked={enabled}
          aria-describedby={ids.enabledHelp}
          // Requiring an IdP that is switched off would shut reviewers and handlers out.
          onChange={(event) => {
            const on = event.currentTarget.checked;
            onChange({ enabled: on, requireSso: on && requireSso });
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
          onChange={(event) => onChange({ enabled, requireSso: event.currentTarget.checked })}
        />
        {t('sso.requireSso')}
      </label>
      <p className="settings-muted settings-help" id={ids.requireHelp}>
        {t('sso.requireSsoHelp')}
      </p>
      {error && (
        <p className="wh-field__error" id={ids.error}>
          {error}
        </p>
      )}
    </fieldset>
  );
}

/**
 * The company's SAML identity provider: its sign-in address and certificate (required), the attribute that
 * carries the e-mail, and the switches. The server checks the certificate and says what it read.
 */
export function IdentityProviderSection({
  settings,
  readAt,
  onSaved,
}: {
  settings: SsoSettingsResponse;
  /** When the settings were read: the certificate's expiry is judged against it (render stays pure). */
  readAt: number;
  onSaved(saved: SsoSettingsResponse): Promise<void>;
}) {
  const { t } = useTranslation(['settings', 'common']);
  const { api } = useStaffSession();
  const [switches, setSwitches] = useState({ enabled: settings.enabled, requireSso: settings.require_sso });
  const [errors, setErrors] = useState<Errors>({});
  const save = useAction();

  /** Server messages the page knows are said in the page language; any other is shown as it came. */
  const say = (message: string | undefined) =>
    message === undefined ? undefined : t(`sso.errors.${message}`, { defaultValue: message });

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const values = new FormData(event.currentTarget);
    const wanted = {
      enabled: switches.enabled,
      require_sso: switches.enabled && switches.requireSso,
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
    await save.run(
      async () => {
        const saved = await saveSsoSettings(api, wanted);
        setSwitches({ enabled: saved.enabled, requireSso: saved.require_sso });
        await onSaved(saved);
      },
      {
        recover: (error) => {
          const refused = fieldErrorsOf(error);
          if (refused)
            setErrors({
              entry_point: say(refused.entry_point?.[0]),
              idp_certificate: say(refused.idp_certificate?.[0]),
              email_attribute: say(refused.email_attribute?.[0]),
              enabled: say(refused.enabled?.[0]),
              require_sso: say(refused.require_sso?.[0]),
            });
          return Boolean(refused);
        },
      },
    );
  }

  return (
    <form className="wh-card" noValidate onSubmit={(event) => void submit(event)} aria-busy={save.busy || undefined}>
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
      <CertificateFacts settings={settings} readAt={readAt} />
      <TextField
        name="email_attribute"
        label={t('sso.emailAttribute')}
        defaultValue={settings.email_attribute}
        autoCapitalize="off"
        spellCheck={false}
        error={errors.email_attribute}
      />
      <p className="settings-muted settings-help">{t('sso.emailAttributeHelp')}</p>
      <SsoSwitches {...switches} error={errors.enabled ?? errors.require_sso} onChange={setSwitches} />
      <div className="wh-actions">
        <Button type="submit" busy={save.busy}>
          {t('sso.save')}
        </Button>
      </div>
    </form>
  );
}
