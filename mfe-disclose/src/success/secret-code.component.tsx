import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { secretCodeGroups } from '@whistle/crypto';
import { Button } from '@whistle/ui';

/** Hands `text` to the browser's download as a text file called `fileName`. */
export function downloadText(text: string, fileName: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // The click has started the download: the object URL is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * The secret code shown whole, in large monospaced groups that wrap on a narrow screen, and three ways to keep it:
 * Copy, a text file, a printout. Each keeps the code exactly (the groups are only how it is drawn).
 */
export function SecretCode({ code }: { code: string }) {
  const { t } = useTranslation('disclose');
  const [copied, setCopied] = useState(false);
  const labelId = useId();
  const valueRef = useRef<HTMLParagraphElement>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
    } catch {
      // Without clipboard access the code is selected, for the person to copy it themselves.
      if (valueRef.current) window.getSelection()?.selectAllChildren(valueRef.current);
    }
  }

  return (
    <div className="disclose-code" role="group" aria-labelledby={labelId}>
      <p className="wh-field__label" id={labelId}>
        {t('success.codeLabel')}
      </p>
      <p ref={valueRef} className="disclose-code__value" translate="no" dir="ltr">
        {secretCodeGroups(code).map((group, index) => (
          <span key={index} className="disclose-code__group">
            {group}
          </span>
        ))}
      </p>
      <div className="disclose-code__actions">
        <Button variant="secondary" onClick={copy}>
          {t('success.copy')}
        </Button>
        <Button variant="secondary" onClick={() => downloadText(code, t('success.fileName'))}>
          {t('success.download')}
        </Button>
        <Button variant="secondary" onClick={() => window.print()}>
          {t('success.print')}
        </Button>
      </div>
      <p role="status" className="disclose-code__copied">
        {copied ? t('success.copied') : ''}
      </p>
      <p>{t('success.codeHint')}</p>
    </div>
  );
}
