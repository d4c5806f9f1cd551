import { useState } from 'react';
import { getCompanyPublicView, type ApiClient } from '@whistle/api-client';
import { Spinner, useLoad } from '@whistle/ui';
import { CompanyErrorView } from '../company/company-error.component';
import { DiscloserFrame } from '../company/discloser-frame.component';
import { takeEmbeddedCompanyView } from '../company/embedded-company-view';
import type { RouterEntry } from '../routed.app';
import { LandingPage, landingLinks } from './landing.page';

export interface LandingWithoutRouterProps {
  api: ApiClient;
  urlIdentifier: string;
  /** The discloser leaves the landing page: hand over to the router. */
  onLeave(entry: RouterEntry): void;
  /** The discloser may leave soon: start downloading the router. */
  onIntent(): void;
}

/** The landing page of a first visit: the company loaded and shown without React Router. */
export function LandingWithoutRouter({ api, urlIdentifier, onLeave, onIntent }: LandingWithoutRouterProps) {
  // The view the server drew the page from, when it did: shown at once, in place of the server's markup.
  const [embedded] = useState(() => takeEmbeddedCompanyView(urlIdentifier));
  // Every failure shows in the discloser's frame: an unknown company, or the error page (reported).
  const { data, error } = useLoad(
    (signal) => (embedded ? Promise.resolve(embedded) : getCompanyPublicView(api, urlIdentifier, signal)),
    [api, urlIdentifier, embedded],
    { shows: () => true },
  );
  const company = data ?? embedded;
  if (error !== undefined) return <CompanyErrorView error={error} />;
  if (!company) return <Spinner />;
  const links = landingLinks(company.url_identifier);
  return (
    <DiscloserFrame company={company}>
      <LandingPage
        company={company}
        onReport={() => onLeave({ company, to: links.create })}
        onCheckStatus={(code) => onLeave({ company, to: links.review, code })}
        onIntent={onIntent}
      />
    </DiscloserFrame>
  );
}
