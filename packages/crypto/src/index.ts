export { PARAMS } from './params';
export { CryptoFormatError, DecryptionError } from './errors';
export { fromBase64Url, toBase64Url, type Bytes } from './encoding';
export { constantTimeEqual } from './compare';
export { versionOf } from './format';
export { wrapToPublicKey, unwrapWithPrivateKey, type WrapPurpose } from './wrap';
export {
  createCompanyCredentials,
  openLegacyCompanySecret,
  unlockCompanyPrivateKey,
  type CompanyCredentials,
  type LegacyCompanyKeys,
} from './legacy-company-key';
export {
  CURRENT_KDF,
  deriveStaffSecrets,
  isAuthSecret,
  newKdfSalt,
  unlockKeyFromPrf,
  type KdfName,
  type StaffSecrets,
} from './staff-secrets';
export {
  createPersonKeys,
  importPersonKeys,
  openPersonSecret,
  personFingerprint,
  resealPersonSecret,
  sealPersonSecret,
  unlockPersonKeys,
  type PersonKeys,
  type PersonPublicKeys,
  type PersonSecret,
} from './person-keys';
export {
  companyFingerprint,
  createCompanyKeyPair,
  grantCompanyKey,
  importCompanyPrivateKey,
  openCompanyKeyGrant,
  openCompanyKeyWithRecovery,
  sealCompanyKeyForRecovery,
  type CompanySecret,
} from './company-keys';
export { createRecoveryKey, parseRecoveryKey, type RecoveryKey } from './recovery-key';
export { caseKeyPin, caseKeyPinKey, type CaseKeyPin } from './case-key-pins';
export { fingerprintOf } from './fingerprint';
export { submissionFingerprint, type SubmittedCiphertexts } from './submission-fingerprint';
export {
  createIncidentCredentials,
  grantIncidentPassphrase,
  openIncidentAsCompany,
  openIncidentWithGrant,
  openIncidentAsDiscloser,
  openPinnedTeamKeys,
  regrantIncidentPassphrase,
  rewrapIncidentPassphrase,
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
export { formatSecretCode, parseSecretCode, secretCodeGroups, type SecretCode } from './secret-code';
export {
  decryptContent,
  decryptFile,
  decryptNote,
  decryptReportFields,
  encryptContent,
  encryptFile,
  encryptNote,
  encryptReportFields,
  encryptedFileLength,
  paddedFileLength,
  type ContentBinding,
  type EncryptedField,
  type EncryptedFile,
  type TeamOnlyKind,
} from './content';
export {
  MAX_PROOF_OF_WORK_DIFFICULTY,
  PROOF_OF_WORK,
  leadingZeroBits,
  solveProofOfWork,
  verifyProofOfWork,
} from './proof-of-work';
export {
  endorseTeamKey,
  resolveTeamKeys,
  signStaffContent,
  verifyKeyEndorsement,
  verifyStaffContent,
  type KeyEndorsement,
  type SignedKind,
  type StaffSignature,
  type TeamKey,
} from './team-keys';
export { fileContentDigest, staffFileCiphertexts, type SignedFileParts } from './staff-files';
