import { useNavigate, useSubmit } from 'react-router';
import { useCompany } from '../company/company.layout';
import { LandingPage, landingLinks } from './landing.page';

/** The landing page inside the router (once another discloser page has been opened): React Router navigates. */
export function LandingRoute() {
  const company = useCompany();
  const navigate = useNavigate();
  const submit = useSubmit();
  const links = landingLinks(company.url_identifier);
  return (
    <LandingPage
      company={company}
      onReport={() => navigate(links.create)}
      onCheckStatus={(code) => submit({ uniquePassword: code }, { method: 'post', action: links.review })}
    />
  );
}
