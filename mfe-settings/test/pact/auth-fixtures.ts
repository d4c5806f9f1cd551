import path from 'node:path';
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { createApiClient, type ApiError } from '@whistle/api-client';

const { eachLike, regex, uuid } = MatchersV3;

/**
 * What settings expect of auth, in one pact file whichever test file adds to it. The Bearer is a
 * placeholder: the provider test (services/auth/test/pact) swaps in the token its state handler made.
 */
export const authPact = () =>
  new PactV4({
    consumer: 'whistle-mfe-settings',
    provider: 'whistle-auth',
    dir: path.resolve(__dirname, '../../../pacts'),
    logLevel: 'warn',
  });

export const ADMIN = 'ada@settings.example';
/** The password and salt the auth provider's staff states make the admin with (shared with the shell's pacts). */
export { PACT_PASSWORD as PASSWORD, PACT_KDF_SALT } from '../../../shell/test/pact/fixtures';
export const headers = {
  Accept: 'application/json',
  'Content-Type': 'application/json',
  Authorization: 'Bearer staff-token',
};
export const api = (url: string) => createApiClient({ baseUrl: url, getToken: () => 'staff-token' });
export const jwt = regex(
  /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/,
  'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1In0.c2ln',
);
export const profile = (fullName: string) => ({
  uuid: uuid(),
  email: ADMIN,
  full_name: fullName,
  roles: eachLike('ADMIN'),
  mfa_auth_factor_id: null,
});
export const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: ApiError) => error,
  );
export const STATE = `staff member ${ADMIN} without MFA exists`;
