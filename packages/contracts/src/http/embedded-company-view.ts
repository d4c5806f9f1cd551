/**
 * The id of the `<script type="application/json">` block in which a server that draws a company's page puts the
 * public view it drew it from, for the discloser remote to take instead of asking the API again.
 *
 * A module of its own, without zod: the landing page imports this value, and a value from a module that builds
 * schemas brings that module's `z.object(...)` calls, and with them zod, into the page (26 KB Brotli).
 */
export const EMBEDDED_COMPANY_VIEW_ID = 'whistle-company-view';
