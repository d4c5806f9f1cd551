import { useEffect, useReducer } from 'react';
import { useNavigate, useNavigation, useSubmit } from 'react-router';
import { useCompany } from '../company/company.layout';
import { currentFailure, forgetOutcome } from '../session/status-outcome.store';
import { LandingPage, landingLinks } from './landing.page';

/**
 * The landing page inside the router (once another discloser page has been opened): React Router navigates. A code
 * being checked keeps the status form open with it; a code that did not open a report comes back here (the review
 * action's redirect) and the form says why, still holding what was typed.
 */
export function LandingRoute() {
  const company = useCompany();
  const navigate = useNavigate();
  const submit = useSubmit();
  const navigation = useNavigation();
  const [, refresh] = useReducer((count: number) => count + 1, 0);
  const links = landingLinks(company.url_identifier);
  const posted = navigation.formAction === links.review ? navigation.formData?.get('uniquePassword') : null;
  const failure = currentFailure(company.url_identifier);
  // The refused code is not kept once the discloser goes elsewhere.
  useEffect(() => () => (currentFailure(company.url_identifier) ? forgetOutcome() : undefined), [company]);
  return (
    <LandingPage
      company={company}
      onReport={() => navigate(links.create)}
      onCheckStatus={(code) => submit({ uniquePassword: code }, { method: 'post', action: links.review })}
      statusCheck={typeof posted === 'string' ? { code: posted, checking: true } : (failure ?? undefined)}
      onStatusCancel={() => {
        forgetOutcome();
        refresh();
      }}
    />
  );
}
