import { EMBEDDED_COMPANY_VIEW_ID, type CompanyPublicView } from '@whistle/contracts';

/**
 * The company view the page arrived with, once: the landing page's first render shows the same company as the
 * HTML did, without a spinner in between or a second round trip. The block is removed when read, so any later
 * page asks the API again.
 */
export function takeEmbeddedCompanyView(urlIdentifier: string): CompanyPublicView | undefined {
  const element = document.getElementById(EMBEDDED_COMPANY_VIEW_ID);
  if (!element) return undefined;
  element.remove();
  try {
    const view = JSON.parse(element.textContent ?? '') as CompanyPublicView;
    return view.url_identifier === urlIdentifier ? view : undefined;
  } catch {
    return undefined;
  }
}
