import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { IncidentStaffView } from '@whistle/contracts';
import { submissionFingerprint } from '@whistle/crypto';

/**
 * The proof of submission (issue 26): the fingerprint of the report's ciphertexts, computed in this browser from the
 * case as the server hands it (its incident keys and encrypted fields), the same function the reporter's browser
 * used for the receipt. The same text on both means the report is the one the reporter sent.
 */
export function ProofOfSubmission({ view }: { view: Pick<IncidentStaffView, 'keys' | 'fields'> }) {
  const { t } = useTranslation('incidents');
  // With what it was computed from: a case loaded again shows its own fingerprint, never the previous one's.
  const [computed, setComputed] = useState<{ keys: unknown; fields: unknown; value: string } | null>(null);
  const explainerId = useId();
  const { keys, fields } = view;
  const fingerprint = computed?.keys === keys && computed.fields === fields ? computed.value : null;

  useEffect(() => {
    let current = true;
    void submissionFingerprint({ ...keys, fields }).then((value) => current && setComputed({ keys, fields, value }));
    return () => {
      current = false;
    };
  }, [keys, fields]);

  return (
    <div className="case-proof">
      <dl className="case-details">
        <div className="case-details__row">
          <dt>{t('detail.proof.label')}</dt>
          <dd className="case-proof__fingerprint" translate="no" dir="ltr" aria-describedby={explainerId}>
            {fingerprint ?? '…'}
          </dd>
        </div>
      </dl>
      <p id={explainerId} className="case-muted">
        {t('detail.proof.explainer')}
      </p>
    </div>
  );
}
