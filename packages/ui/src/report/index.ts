// What the discloser's and the staff's report pages share (@whistle/ui/report): formatting, the review
// order, files chosen, encrypted and uploaded, and decrypted downloads. An entry of its own (a shared
// singleton of its own), so the discloser's landing page never loads it.
export {
  MAX_FILE_SIZE,
  isLoaded,
  isTooLarge,
  uploadAttachment,
  uploadFailureKey,
  type Attachment,
  type PendingFile,
} from './attachment';
export { saveDecryptedFile } from './download-file';
export { FilePicker } from './file-picker.component';
export { formatFileSize, formatInputDate, formatMessageTime } from './format';
export { REPORT_DETAIL_ORDER, reportDetails, type DetailRow, type ReportDetailsSource } from './report-details';
export { useAttachments } from './use-attachments';
