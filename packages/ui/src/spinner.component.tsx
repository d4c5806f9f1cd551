import { useTranslation } from 'react-i18next';

/** Busy indicator; the text is for screen readers, the ring for everyone else. */
export function Spinner({ label }: { label?: string }) {
  const { t } = useTranslation('common');
  return (
    <div className="wh-spinner" role="status">
      <span className="wh-spinner__ring" aria-hidden="true" />
      <span className="wh-visually-hidden">{label ?? t('loading')}</span>
    </div>
  );
}
