export { recipientOf, startSmtpCatcher, type SmtpCatcher } from './smtp-catcher';
export { startS3Server, type TestS3Server } from './s3-server';
export { formFields, selfSignedCertificate, startIdentityProvider, type TestIdentityProvider } from './saml-idp';
export { PACT_VERIFICATION_TIMEOUT_MS, verifyProviderPact, type ProviderPactOptions } from './pact';
export {
  parseEnvelope,
  startSentryServer,
  type EnvelopeItem,
  type ReceivedEnvelope,
  type SentryServer,
} from './sentry-server';
export {
  fetchCall,
  grantReportAccess,
  kdfUpgradeBody,
  newPasswordCredentials,
  onboardingPayload,
  openCompanyKey,
  passwordChangeBody,
  signInBody,
  staffSecrets,
  unlockOwnKeys,
  type Onboarding,
  type StaffCall,
} from './staff-browser';
export { companyKeyRotationBody, rewrapCompanyCases, rotationKeys } from './key-rotation';
