import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { getSsoSettings, ssoMetadataUrl, ssoRedirectUrl } from '@whistle/api-client';
import type { SsoSettingsResponse } from '@whistle/contracts';
import { Button, Spinner, useDocumentTitle, useLoad } from '@whistle/ui';
import { usePageToast, useStaffSession, useStaffState } from '@whistle/ui/staff';
import { IdentityProviderSection } from './identity-provider.section';

/** What to give the identity provider: this service provider's entity id, its ACS address and its metadata. */
function ServiceProviderSection({ sp }: { sp: SsoSettingsResponse['service_provider'] }) {
  const { t } = useTranslation('settings');
  const { api } = useStaffSession();
  return (
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
        <a href={ssoMetadataUrl(api)} download="whistle-sp-metadata.xml">
          {t('sso.downloadMetadata')}
        </a>
      </p>
    </section>
  );
}

/**
 * A real sign-in through the company's IdP, in a new tab. The redirect finds the company by the e-mail's
 * domain: the admin's own address tries the company's IdP.
 */
function SsoTrial({ email, canTest }: { email: string; canTest: boolean }) {
  const { t } = useTranslation('settings');
  const { api } = useStaffSession();
  const introId = useId();
  return (
    // A real browser form: the server answers 303 to the IdP, which must happen as a navigation, in a new tab.
    <form
      className="wh-card"
      method="post"
      action={ssoRedirectUrl(api)}
      target="_blank"
      aria-labelledby="sso-test"
      aria-describedby={introId}
    >
      <h2 id="sso-test">{t('sso.testTitle')}</h2>
      <p id={introId}>
        {t('sso.testIntro', { email })} {!canTest && <strong>{t('sso.testNeedsSave')}</strong>}
      </p>
      <input type="hidden" name="email" value={email} />
      <div className="wh-actions">
        <Button type="submit" variant="secondary" disabled={!canTest}>
          {t('sso.testButton')} <span className="settings-muted">{t('sso.opensInNewTab')}</span>
        </Button>
      </div>
    </form>
  );
}

/**
 * /company/settings/sso (ADMIN): the company's SAML identity provider, what to give that IdP, whether SSO is
 * required of staff, and a real sign-in to try it first.
 */
export function SsoPage() {
  const { t } = useTranslation('settings');
  const session = useStaffSession();
  const state = useStaffState();
  const { toast, show } = usePageToast(t('dismiss'));
  // When the settings were read: the certificate's expiry is judged against it (render stays pure).
  const loaded = useLoad(
    async (signal) => ({ settings: await getSsoSettings(session.api, signal), readAt: Date.now() }),
    [session.api],
  );
  useDocumentTitle(t('sso.title'));
  if (!loaded.data || !state) return <Spinner />;
  const { settings, readAt } = loaded.data;

  async function saved(next: SsoSettingsResponse) {
    loaded.replace({ settings: next, readAt: Date.now() });
    // The company's sso_enabled (staff state) follows the switch.
    await session.reloadStaff();
    show(t('updatedSettings'));
  }

  return (
    <>
      <h1>{t('sso.title')}</h1>
      <p>{t('sso.intro')}</p>
      <ServiceProviderSection sp={settings.service_provider} />
      <IdentityProviderSection settings={settings} readAt={readAt} onSaved={saved} />
      <SsoTrial email={state.profile.email} canTest={settings.configured && settings.enabled} />
      {toast}
    </>
  );
}
