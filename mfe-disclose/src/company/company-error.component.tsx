import { useTranslation } from 'react-i18next';
import { ApiError } from '@whistle/api-client';
import { ErrorPage, MessagePage, useErrorReport } from '@whistle/ui';
import { DiscloserFrame } from './discloser-frame.component';

/** An unknown (or malformed) url_identifier is a message for the discloser, not a crash. */
const isUnknownCompany = (error: unknown) =>
  error instanceof ApiError && (error.status === 404 || error.status === 400);

/**
 * What the discloser sees when the company of the page could not be loaded (or its page failed), with the
 * router or without it (the landing page's first visit); the error is reported either way.
 */
export function CompanyErrorView({ error }: { error: unknown }) {
  useErrorReport(error);
  const { t } = useTranslation('disclose');
  return (
    <DiscloserFrame>
      {isUnknownCompany(error) ? (
        <MessagePage title={t('companyNotFound.title')} role="alert">
          <p>{t('companyNotFound.description')}</p>
        </MessagePage>
      ) : (
        <ErrorPage />
      )}
    </DiscloserFrame>
  );
}
