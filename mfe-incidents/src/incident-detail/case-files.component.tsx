import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { decryptIncidentFile, saveBlob, StoredFiles, type DecryptedFile } from '@whistle/ui/report';
import { FilePreview } from './file-preview.component';
import type { OpenedCase, ShownFile } from './use-case';

/** The file being previewed: decrypted in memory once, for the preview and its download. */
interface Previewing {
  uuid: string;
  name: string;
  mimeType: string;
  file?: DecryptedFile;
  failed?: boolean;
}

/**
 * Files with human sizes, downloaded and decrypted in the browser (the case's file token opens them), or
 * previewed in the page after the same decryption.
 */
export function CaseFiles({ files, opened }: { files: readonly ShownFile[]; opened: OpenedCase }) {
  const { t } = useTranslation('incidents');
  const [previewing, setPreviewing] = useState<Previewing>();

  async function preview({ uuid, name, mimeType }: ShownFile) {
    setPreviewing({ uuid, name, mimeType });
    // A late answer for a preview already closed (or replaced) is dropped.
    const settle = (update: Partial<Previewing>) =>
      setPreviewing((current) => (current?.uuid === uuid ? { ...current, ...update } : current));
    try {
      settle({ file: await decryptIncidentFile(opened.filesApi, opened.handle, uuid) });
    } catch {
      settle({ failed: true });
    }
  }

  return (
    <>
      <StoredFiles
        files={files}
        api={opened.filesApi}
        handle={opened.handle}
        words={{
          unverifiable: t('files.unverifiable'),
          download: t('files.download'),
          downloadFailed: t('files.downloadFailed'),
          preview: t('files.preview'),
        }}
        onPreview={(stored) => void preview(files.find((file) => file.uuid === stored.uuid)!)}
      />
      {previewing && (
        <FilePreview
          fileName={previewing.name}
          mimeType={previewing.mimeType}
          file={previewing.file}
          failed={previewing.failed ?? false}
          onDownload={saveBlob}
          onClose={() => setPreviewing(undefined)}
        />
      )}
    </>
  );
}
