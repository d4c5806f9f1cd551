import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Button } from '../button.component';
import { formatDateTime } from '../dates';
import './recovery-kit.css';

/** A recovery kit as the pages show it once: its text, the company key's fingerprint, when it was made. */
export interface RecoveryKitView {
  text: string;
  fingerprint: string;
  createdAt: string;
}

export interface RecoveryKitSheetProps {
  kit: RecoveryKitView;
  companyName: string;
  /** Called once the person confirmed they stored the kit. */
  onConfirmed: () => void;
  confirmLabel?: string;
}

/** The kit as a text file: what a person keeps offline, with what it is and how to use it. */
function kitFile(kit: RecoveryKitView, companyName: string, t: TFunction<'shell'>): string {
  return [
    t('recoveryKit.fileTitle', { company: companyName }),
    '',
    `${t('recoveryKit.created')}: ${kit.createdAt}`,
    `${t('recoveryKit.fingerprint')}: ${kit.fingerprint}`,
    '',
    `${t('recoveryKit.key')}:`,
    kit.text,
    '',
    t('recoveryKit.fileUse'),
    '',
  ].join('\n');
}

/**
 * The company's recovery kit, shown once: the only way to restore access to reports when no admin can open the
 * company key any more (docs/security.md, "Recovery"). Printable (the print stylesheet keeps the sheet alone) and
 * downloadable; the person must confirm they stored it, as a discloser confirms their secret code.
 */
export function RecoveryKitSheet({ kit, companyName, onConfirmed, confirmLabel }: RecoveryKitSheetProps) {
  const { t, i18n } = useTranslation('shell');
  const [stored, setStored] = useState(false);
  const checkboxId = useId();
  const created = formatDateTime(kit.createdAt, i18n.language);

  function download() {
    const url = URL.createObjectURL(new Blob([kitFile(kit, companyName, t)], { type: 'text/plain;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `whistle-recovery-kit-${companyName.replace(/[^\w-]+/g, '-').toLowerCase()}.txt`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }

  return (
    <section className="wh-recovery-kit" aria-labelledby={`${checkboxId}-title`}>
      <h2 id={`${checkboxId}-title`}>{t('recoveryKit.title')}</h2>
      <p>{t('recoveryKit.why')}</p>
      <p>{t('recoveryKit.howToKeep')}</p>
      <div className="wh-recovery-kit__sheet">
        <p className="wh-recovery-kit__company">{t('recoveryKit.fileTitle', { company: companyName })}</p>
        <dl>
          <dt>{t('recoveryKit.created')}</dt>
          <dd>{created}</dd>
          <dt>{t('recoveryKit.fingerprint')}</dt>
          <dd className="wh-recovery-kit__mono">{kit.fingerprint}</dd>
        </dl>
        <p className="wh-recovery-kit__label">{t('recoveryKit.key')}</p>
        <p className="wh-recovery-kit__key wh-recovery-kit__mono" translate="no">
          {kit.text.split(' ').map((group, index) => (
            <span key={index}>{group}</span>
          ))}
        </p>
        <p className="wh-recovery-kit__use">{t('recoveryKit.fileUse')}</p>
      </div>
      <div className="wh-actions wh-recovery-kit__tools">
        <Button variant="secondary" onClick={() => window.print()}>
          {t('recoveryKit.print')}
        </Button>
        <Button variant="secondary" onClick={download}>
          {t('recoveryKit.download')}
        </Button>
      </div>
      <p className="wh-recovery-kit__confirm">
        <input id={checkboxId} type="checkbox" checked={stored} onChange={(event) => setStored(event.target.checked)} />{' '}
        <label htmlFor={checkboxId}>{t('recoveryKit.stored')}</label>
      </p>
      <div className="wh-actions">
        <Button disabled={!stored} onClick={onConfirmed}>
          {confirmLabel ?? t('recoveryKit.continue')}
        </Button>
      </div>
    </section>
  );
}
