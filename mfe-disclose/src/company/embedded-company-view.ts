import type { CompanyPublicView } from '@whistle/contracts';

/** Where the standalone server puts the company view it drew the landing page from (standalone/src/page.ts). */
const ELEMENT_ID = 'whistle-company-view';

/**
 * The company view the page arrived with, once: the landing page's first render shows the same company as the
 * HTML did, without a spinner in between or a second round trip. The block is removed when read, so any later
 * page asks the API again.
 */
export function takeEmbeddedCompanyView(urlIdentifier: string): CompanyPublicView | undefined {
  const element = document.getElementById(ELEMENT_ID);
  if (!element) return undefined;
  element.remove();
  try {
    const view = JSON.parse(element.textContent ?? '') as CompanyPublicView;
    return view.url_identifier === urlIdentifier ? view : undefined;
  } catch {
    return undefined;
  }
}
