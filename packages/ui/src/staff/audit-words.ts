import { useTranslation } from 'react-i18next';

/**
 * The audit trail in the reader's words, the same on a case's history and on the company's audit log
 * (the `common` namespace): an action in plain words, or as recorded when it is one this version does
 * not know yet; staff by their name at the time, the discloser and the platform in the reader's language.
 */
export function useAuditWords() {
  const { t } = useTranslation('common');
  return {
    action: (action: string) => t(`audit.actions.${action}`, { defaultValue: action }),
    actor: ({ type, name }: { type: string; name: string }) =>
      type === 'STAFF' ? name : t(`audit.actors.${type}`, { defaultValue: name }),
  };
}
