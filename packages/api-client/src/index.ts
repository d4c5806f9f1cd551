export {
  ApiError,
  ApiNetworkError,
  isIgnoredByErrorReporting,
  isIgnoredStatus,
  RequestAbortedError,
} from './api-error';
export {
  createApiClient,
  withToken,
  type ApiClient,
  type ApiClientOptions,
  type HttpMethod,
  type RequestOptions,
} from './client';
export { companyQrCodeUrl, confirmCompany, createCompany, getCompanyPublicView } from './company';
export { isCommonPassword } from './common-password';
export { removeLogo, updateCustomization, uploadLogo } from './customization';
export {
  answerMfaChallenge,
  changePassword,
  confirmMfaSetup,
  exchangeSsoCode,
  fieldErrorsOf,
  getMailPreferences,
  getOwnCompany,
  getOwnProfile,
  getPasswordSalt,
  isApiError,
  login,
  NoCaseAccessError,
  refreshToken,
  requestPasswordReset,
  revokeToken,
  setMailPreferences,
  setPasswordWithLink,
  ssoRedirectUrl,
  startMfaSetup,
  updateFullName,
  type CaseHandle,
  type CompanyKeyStatus,
  type KeyRecipient,
  type KeyringState,
  type KeyringWorkerMaterial,
  type StaffKeyring,
  type StaffSession,
  type StaffState,
} from './account';
export {
  addUnlockMethod,
  createOwnKeys,
  declineCompanyKeyRequest,
  getCompanyKeys,
  getOwnKeys,
  getTeamKeys,
  grantCompanyKeyTo,
  migrateCompanyKey,
  putRecoveryKit,
  removeUnlockMethod,
  requestCompanyKey,
} from './keys';
export {
  createIncident,
  getDiscloserIncident,
  getProofOfWorkChallenge,
  listIncidentFiles,
  listIncidentMessages,
  sendIncidentMessage,
} from './incident';
export {
  FILE_UPLOAD_CONTENT_TYPE,
  downloadIncidentFile,
  getIncidentFile,
  uploadIncidentFile,
  type DownloadedFile,
  type FileUpload,
  type UploadOptions,
} from './file';
export { exportAuditLog, listAuditLog, verifyAuditLog, type AuditLogParams } from './audit';
export { getReporting } from './reporting';
export { getRetentionPolicy, setRetentionPolicy } from './retention';
export {
  addCaseNote,
  caseQueryString,
  exportCases,
  getCase,
  listCaseFiles,
  listCaseMessages,
  listCaseNotes,
  listCases,
  sendStaffMessage,
  updateCase,
  type CaseQuery,
} from './cases';
export {
  changeMemberRoles,
  createCategory,
  createLocation,
  deleteCategory,
  deleteLocation,
  getSsoSettings,
  inviteMember,
  removeMember,
  resendInvitation,
  saveSsoSettings,
  setCompanyMfaRequired,
  ssoMetadataUrl,
  updateCategory,
  updateCompany,
  updateLocation,
  type CompanySettings,
} from './settings';
