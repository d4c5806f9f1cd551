import { Outlet, useRouteError, useRouteLoaderData, type LoaderFunctionArgs } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ApiError, getCompanyPublicView, type ApiClient } from '@whistle/api-client';
import type { CompanyPublicView } from '@whistle/contracts';
import { ErrorPage, MessagePage } from '@whistle/ui';
import { DiscloserFrame } from './discloser-frame.component';

export const companyLoader =
  (api: ApiClient) =>
  ({ params, request }: LoaderFunctionArgs) =>
    getCompanyPublicView(api, params.urlIdentifier ?? '', request.signal);

/** The company of the current /disclose/{urlIdentifier} page. */
export function useCompany(): CompanyPublicView {
  const company = useRouteLoaderData('company') as CompanyPublicView | undefined;
  if (!company) throw new Error('useCompany is used outside the company route');
  return company;
}

export function CompanyLayout() {
  const company = useCompany();
  return (
    <DiscloserFrame company={company}>
      <Outlet />
    </DiscloserFrame>
  );
}

/** An unknown (or malformed) url_identifier is a message for the discloser, not a crash. */
const isUnknownCompany = (error: unknown) =>
  error instanceof ApiError && (error.status === 404 || error.status === 400);

export function CompanyError() {
  const error = useRouteError();
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
