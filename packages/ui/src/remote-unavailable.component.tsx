import { useTranslation } from 'react-i18next';
import { MessagePage } from './message-page.component';

/** Shown in place of a part of the application that could not be loaded; the rest keeps working. */
export function RemoteUnavailable() {
  const { t } = useTranslation('common');
  return (
    <MessagePage title={t('errors.remoteUnavailable.title')} role="alert">
      <p>{t('errors.remoteUnavailable.description')}</p>
    </MessagePage>
  );
}
