// What the discloser's and the staff's report pages share (@whistle/ui/report): the report's incident fields,
// formatting, the review order, files chosen (or voice messages recorded and disguised), encrypted and uploaded, decrypted downloads, and the thread with its encrypted reply. An entry of its own (a shared
// singleton of its own), so the discloser's landing page never loads it.
export {
  MAX_FILE_SIZE,
  isLoaded,
  isTooLarge,
  uploadAttachment,
  uploadFailureKey,
  type Attachment,
  type FileSigner,
  type PendingFile,
  type UploadFailureKey,
} from './attachment';
export { decryptIncidentFile, saveBlob, saveDecryptedFile, type DecryptedFile } from './download-file';
export { FilePicker } from './file-picker.component';
export { formatFileSize } from './format';
export {
  IncidentFields,
  type IncidentFieldValues,
  type IncidentFieldWords,
  type IncidentFieldsProps,
  type RequiredIncidentField,
} from './incident-fields.component';
export { cleanFile, type CleanedFile, type MetadataWarning, type RemovedMetadata } from './metadata';
export {
  REPORT_DETAIL_ORDER,
  openReportFields,
  openText,
  reportDetails,
  type DetailRow,
  type ReportDetailsSource,
} from './report-details';
export { useAttachments } from './use-attachments';
export { useVoiceRecorder } from './voice/use-voice-recorder';
export { VoiceRecorder } from './voice/voice-recorder.component';
export {
  MessageEntry,
  MessageText,
  MessageThread,
  messageBinding,
  type SenderSource,
  type ThreadMessage,
  type ThreadWords,
} from './message-thread.component';
export { ReplyForm, useReply, type ReplyOptions, type ReplyWords } from './reply-form.component';
export { sendEncryptedMessage, type MessageChannel, type OutgoingMessage, type PostedMessage } from './send-message';
export { StoredFiles, type StoredFile, type StoredFileWords } from './stored-files.component';
