import { useCallback, useState } from 'react';
import { isLoaded, type Attachment, type PendingFile } from './attachment';

/** The files chosen for a report or a reply: read into memory by the FilePicker, then uploaded with progress. */
export function useAttachments() {
  const [files, setFiles] = useState<PendingFile[]>([]);
  const setProgress = useCallback(
    (id: string, progress: number) =>
      setFiles((current) =>
        current.map((file) => (file.id === id ? { ...file, progress, retryInSeconds: undefined } : file)),
      ),
    [],
  );
  const setRetrying = useCallback(
    (id: string, retryInSeconds: number) =>
      setFiles((current) => current.map((file) => (file.id === id ? { ...file, progress: 0, retryInSeconds } : file))),
    [],
  );
  return {
    files,
    /** The FilePicker's `onChange`. */
    setFiles,
    /** Spec §4: sending waits while a file is still being read. */
    loading: files.some((file) => !isLoaded(file)),
    loaded: files.filter(isLoaded),
    setProgress,
    /** An upload the server could not take now is sent again in `retryInSeconds`: the picker says so. */
    setRetrying,
    /** A file made on the page (a voice message), already read: added after the chosen ones. */
    add: useCallback((file: Attachment) => setFiles((current) => [...current, { ...file, progress: 0 }]), []),
    clear: useCallback(() => setFiles([]), []),
  };
}
