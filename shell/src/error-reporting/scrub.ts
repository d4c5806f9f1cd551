/**
 * What the browser's error reports may not carry (docs/security.md): form values, bodies, local storage,
 * cookies, headers, the client's address, query strings and fragments (reset and invitation tokens, SSO
 * codes, retrieval ids travel there), and path segments that name a company or a case. The SDK is told
 * not to collect them; these functions remove whatever an integration still attaches, from every string
 * of an event, a breadcrumb or a span.
 */

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
/** A query string or fragment after a URL or path (`?token=…`, `#code=…`): up to the next space or quote. */
const QUERY = /(?<=[\w/.%-])[?#][^\s"'<>`]+/g;
/** The discloser pages' company (`/disclose/acme/review`): which employer a discloser reports is theirs to tell. */
const DISCLOSE_COMPANY = /\/disclose\/(?!:)[^/\s"'<>?#`]+/g;
/** The page shown after onboarding (`/company/acme/success`). */
const COMPANY_SUCCESS = /\/company\/(?!:)[^/\s"'<>?#`]+\/success/g;
/** The public company view, logo and QR code of the API (`/api/account/company/acme/logo`). */
const PUBLIC_COMPANY_API =
  /\/api\/account\/company\/(?!:|profile\b|sso\b|audit_log\b|customization\b|category\b|location\b|user_profile\b|mfa\b)[^/\s"'<>?#`]+/g;

/** Any text of a report with its URLs and paths made safe. */
export function scrubText(text: string): string {
  return text
    .replace(QUERY, '')
    .replace(DISCLOSE_COMPANY, '/disclose/:urlIdentifier')
    .replace(COMPANY_SUCCESS, '/company/:urlIdentifier/success')
    .replace(PUBLIC_COMPANY_API, '/api/account/company/:url_identifier')
    .replace(UUID, ':uuid');
}

/** Keys whose values could be a client's address, headers, cookies, bodies or query strings (span and breadcrumb data). */
const UNSAFE_KEY =
  /(^|[._-])ip($|[._-])|address|peer|header|cookie|query|fragment|body|user_agent|user-agent|referer|referrer|authorization/i;

/** A span's attributes or a breadcrumb's data without the keys that could hold what must not be sent. */
export function withoutUnsafeKeys<T extends Record<string, unknown>>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([key]) => !UNSAFE_KEY.test(key))) as T;
}

/** Every string in `value` scrubbed (`scrubText`), to any depth. */
export function scrubDeep<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return scrubText(value) as T;
  if (depth > 16 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item: unknown) => scrubDeep(item, depth + 1)) as T;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, scrubDeep(item, depth + 1)]),
  ) as T;
}
