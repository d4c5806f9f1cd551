export { recipientOf, startSmtpCatcher, type SmtpCatcher } from './smtp-catcher';
export { formFields, selfSignedCertificate, startIdentityProvider, type TestIdentityProvider } from './saml-idp';
export { verifyProviderPact, type ProviderPactOptions } from './pact';
