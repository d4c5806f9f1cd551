import { Outlet, useRouteError, useRouteLoaderData, type LoaderFunctionArgs } from 'react-router';
import { getCompanyPublicView, type ApiClient } from '@whistle/api-client';
import type { CompanyPublicView } from '@whistle/contracts';
import { CompanyErrorView } from './company-error.component';
import { DiscloserFrame } from './discloser-frame.component';
import { takeEmbeddedCompanyView } from './embedded-company-view';

/** The company of the page: the one the page arrived with (first page of a visit), else the API's. */
export const companyLoader =
  (api: ApiClient) =>
  async ({ params, request }: LoaderFunctionArgs) =>
    takeEmbeddedCompanyView(params.urlIdentifier ?? '') ??
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

export function CompanyError() {
  return <CompanyErrorView error={useRouteError()} />;
}
