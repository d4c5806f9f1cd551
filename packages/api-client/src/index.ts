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
  getStaffKeys,
  isApiError,
  login,
  refreshToken,
  requestPasswordReset,
  revokeToken,
  setMailPreferences,
  setPasswordWithLink,
  ssoRedirectUrl,
  startMfaSetup,
  updateFullName,
  type StaffSession,
  type StaffState,
} from './account';
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
