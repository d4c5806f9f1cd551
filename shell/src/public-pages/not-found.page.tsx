import { useTranslation } from 'react-i18next';
import { MessagePage } from '@whistle/ui';

export function NotFoundPage() {
  const { t } = useTranslation('shell');
  return (
    <MessagePage title={t('notFound.title')}>
      <p>{t('notFound.description')}</p>
    </MessagePage>
  );
}
