import { useTranslation } from 'react-i18next';
import { MessagePage } from './message-page.component';

/** Spec §2: an unhandled rendering failure shows 'Unexpected Application Error!'. */
export function ErrorPage() {
  const { t } = useTranslation('common');
  return (
    <MessagePage title={t('errors.unexpected.title')} role="alert">
      <p>{t('errors.unexpected.description')}</p>
    </MessagePage>
  );
}
