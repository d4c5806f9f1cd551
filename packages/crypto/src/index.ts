export { PARAMS } from './params';
export { CryptoFormatError, DecryptionError } from './errors';
export { fromBase64Url, toBase64Url, type Bytes } from './encoding';
export { constantTimeEqual } from './compare';
export { wrapToPublicKey, unwrapWithPrivateKey, type WrapPurpose } from './wrap';
export { createCompanyCredentials, unlockCompanyPrivateKey, type CompanyCredentials } from './company';
export {
  createIncidentCredentials,
  openIncidentAsCompany,
  openIncidentAsDiscloser,
  type IncidentCreatePayloadKeys,
  type IncidentCredential,
  type IncidentCredentials,
  type IncidentHandle,
} from './incident';
export {
  deriveDiscloserAuthToken,
  hashDiscloserAuthToken,
  normalizeDiscloserPassphrase,
  verifyDiscloserAuthToken,
  type Sha256,
} from './discloser';
export { formatSecretCode, parseSecretCode, type SecretCode } from './secret-code';
export {
  decryptField,
  decryptFields,
  decryptFile,
  encryptField,
  encryptFields,
  encryptFile,
  type EncryptedField,
  type EncryptedFile,
} from './content';
