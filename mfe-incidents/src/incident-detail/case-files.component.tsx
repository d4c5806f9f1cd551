import { useTranslation } from 'react-i18next';
import { StoredFiles } from '@whistle/ui/report';
import type { OpenedCase, ShownFile } from './use-case';

/** Files with human sizes, downloaded and decrypted in the browser (the case's file token opens them). */
export function CaseFiles({ files, opened }: { files: readonly ShownFile[]; opened: OpenedCase }) {
  const { t } = useTranslation('incidents');
  return (
    <StoredFiles
      files={files}
      api={opened.filesApi}
      handle={opened.handle}
      words={{
        undecryptable: t('files.undecryptable'),
        download: t('files.download'),
        downloadFailed: t('files.downloadFailed'),
      }}
    />
  );
}
