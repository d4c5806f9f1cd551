import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@whistle/ui';
import { formatFileSize, saveDecryptedFile } from '@whistle/ui/report';
import type { OpenedCase, ShownFile } from './use-case';

/** Files with human sizes, downloaded and decrypted in the browser (the case's file token opens them). */
export function CaseFiles({ files, opened }: { files: readonly ShownFile[]; opened: OpenedCase }) {
  const { t, i18n } = useTranslation('incidents');
  const [failed, setFailed] = useState<string | null>(null);
  if (files.length === 0) return null;
  async function download(file: ShownFile) {
    setFailed(null);
    try {
      await saveDecryptedFile(opened.filesApi, opened.handle, file.uuid);
    } catch {
      setFailed(file.uuid);
    }
  }
  return (
    <ul className="wh-files">
      {files.map((file) => (
        <li key={file.uuid}>
          <span className="wh-files__name">{file.name || t('files.undecryptable')}</span>
          <span className="wh-files__size">{formatFileSize(file.size, i18n.language)}</span>
          <Button variant="secondary" onClick={() => download(file)}>
            {t('files.download')}
            <span className="wh-visually-hidden"> {file.name}</span>
          </Button>
          {failed === file.uuid && (
            <span className="wh-field__error" role="alert">
              {t('files.downloadFailed')}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
