import { useEffect, useState } from 'react';
import { getCompanyPublicView, type ApiClient } from '@whistle/api-client';
import type { CompanyPublicView } from '@whistle/contracts';
import { Spinner } from '@whistle/ui';
import { CompanyErrorView } from '../company/company-error.component';
import { DiscloserFrame } from '../company/discloser-frame.component';
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
  const [loaded, setLoaded] = useState<{ company?: CompanyPublicView; error?: unknown }>({});
  useEffect(() => {
    const controller = new AbortController();
    getCompanyPublicView(api, urlIdentifier, controller.signal).then(
      (company) => setLoaded({ company }),
      (error: unknown) => {
        if (!controller.signal.aborted) setLoaded({ error });
      },
    );
    return () => controller.abort();
  }, [api, urlIdentifier]);

  const { company, error } = loaded;
  if (error) return <CompanyErrorView error={error} />;
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
