import { useTranslation } from 'react-i18next';
import { useErrorReport } from './error-reporting';
import { MessagePage } from './message-page.component';

/**
 * Spec §2: an unhandled rendering failure shows 'Unexpected Application Error!'. Given the `error` (an
 * application's root error boundary), the page reports it; route error boundaries report their own.
 */
export function ErrorPage({ error }: { error?: unknown }) {
  useErrorReport(error);
  const { t } = useTranslation('common');
  return (
    <MessagePage title={t('errors.unexpected.title')} role="alert">
      <p>{t('errors.unexpected.description')}</p>
    </MessagePage>
  );
}
