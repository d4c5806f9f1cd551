import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The company key's fingerprint, for a cautious discloser to compare with one the company publishes elsewhere
 * (an intranet page, a poster): reports are encrypted to this key in the browser, so a channel showing another one
 * is not the company's. Computed here from the key the page received, never taken from the server's word; the
 * protocol's code loads only when the person opens this.
 */
export function KeyFingerprint({ publicKey, companyName }: { publicKey: string; companyName: string }) {
  const { t } = useTranslation('disclose');
  const [fingerprint, setFingerprint] = useState<string>();

  function show(open: boolean) {
    if (!open || fingerprint) return;
    void import('@whistle/crypto').then(({ companyFingerprint }) => companyFingerprint(publicKey).then(setFingerprint));
  }

  return (
    <details className="disclose-fingerprint" onToggle={(event) => show(event.currentTarget.open)}>
      <summary>{t('landing.fingerprintQuestion')}</summary>
      <p>{t('landing.fingerprintIntro', { company: companyName })}</p>
      <p className="disclose-fingerprint__value" translate="no">
        {fingerprint ?? '…'}
      </p>
      <p>{t('landing.fingerprintCompare')}</p>
    </details>
  );
}
