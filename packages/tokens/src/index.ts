// The public API of @whistle/tokens: verifying staff access tokens and incident session tokens. Signing stays with the
// issuers (auth signs staff tokens, incident discloser tokens); test helpers: @whistle/tokens/testing.

export {
  STAFF_TOKEN_ALGORITHM,
  STAFF_TOKEN_AUDIENCE,
  STAFF_TOKEN_ISSUER,
  bearerToken,
  createStaffTokenVerifier,
  requireStaff,
  staffOf,
  type RequireStaffOptions,
  type StaffPrincipal,
  type StaffTokenVerifier,
  type StaffTokenVerifierOptions,
} from './staff-token';
export {
  createIncidentSessionVerifier,
  p256KeyFromPem,
  DISCLOSER_TOKEN_ALGORITHM,
  DISCLOSER_TOKEN_AUDIENCE,
  DISCLOSER_TOKEN_ISSUER,
  DISCLOSER_TOKEN_LIFETIME_SECONDS,
  DISCLOSER_TOKEN_SCOPE,
  STAFF_FILE_TOKEN_LIFETIME_SECONDS,
  STAFF_FILE_TOKEN_SCOPE,
  type IncidentSessionPrincipal,
  type IncidentSessionVerifier,
  type IncidentSessionVerifierOptions,
} from './incident-session-token';
export {
  revocationListFor,
  type RevocableToken,
  type RevocationList,
  type TokenRevocationEvent,
} from './revocation/revocation-list';
