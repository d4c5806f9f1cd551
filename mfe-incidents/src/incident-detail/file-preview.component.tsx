import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog, Spinner } from '@whistle/ui';
import type { DecryptedFile } from '@whistle/ui/report';
import '../case/case.css';

/** What the page can show of a file, by its name's extension (the decrypted bytes carry no type). */
type PreviewKind = 'image' | 'text' | 'audio' | 'none';

const TYPES: Record<string, { kind: PreviewKind; mime: string }> = {
  png: { kind: 'image', mime: 'image/png' },
  jpg: { kind: 'image', mime: 'image/jpeg' },
  jpeg: { kind: 'image', mime: 'image/jpeg' },
  gif: { kind: 'image', mime: 'image/gif' },
  webp: { kind: 'image', mime: 'image/webp' },
  avif: { kind: 'image', mime: 'image/avif' },
  bmp: { kind: 'image', mime: 'image/bmp' },
  txt: { kind: 'text', mime: 'text/plain' },
  log: { kind: 'text', mime: 'text/plain' },
  md: { kind: 'text', mime: 'text/plain' },
  csv: { kind: 'text', mime: 'text/plain' },
  json: { kind: 'text', mime: 'text/plain' },
  xml: { kind: 'text', mime: 'text/plain' },
  mp3: { kind: 'audio', mime: 'audio/mpeg' },
  m4a: { kind: 'audio', mime: 'audio/mp4' },
  aac: { kind: 'audio', mime: 'audio/aac' },
  wav: { kind: 'audio', mime: 'audio/wav' },
  ogg: { kind: 'audio', mime: 'audio/ogg' },
  oga: { kind: 'audio', mime: 'audio/ogg' },
  opus: { kind: 'audio', mime: 'audio/ogg' },
  weba: { kind: 'audio', mime: 'audio/webm' },
  webm: { kind: 'audio', mime: 'audio/webm' },
  flac: { kind: 'audio', mime: 'audio/flac' },
};

export function previewType(fileName: string): { kind: PreviewKind; mime: string } {
  const extension = /\.([^.]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? '';
  return TYPES[extension] ?? { kind: 'none', mime: '' };
}

/**
 * A decrypted file shown in a dialog labelled by its name: images and audio from an object URL (revoked when
 * the dialog closes, nothing is written to disk), text as text (never parsed as HTML). PDFs and other types
 * offer the download only. `file` is undefined while it is being decrypted.
 */
export function FilePreview({
  fileName,
  file,
  failed,
  onDownload,
  onClose,
}: {
  fileName: string;
  file: DecryptedFile | undefined;
  failed: boolean;
  onDownload(file: DecryptedFile): void;
  onClose(): void;
}) {
  const { t } = useTranslation('incidents');
  const { kind, mime } = previewType(fileName);
  const [text, setText] = useState<string>();
  // The object URL lives as long as the element showing it: made when it mounts, revoked when it goes.
  const showBlob = useCallback(
    (element: HTMLImageElement | HTMLAudioElement | null) => {
      if (!element || !file) return undefined;
      const url = URL.createObjectURL(new Blob([file.blob], { type: mime }));
      element.src = url;
      return () => URL.revokeObjectURL(url);
    },
    [file, mime],
  );

  useEffect(() => {
    if (!file || kind !== 'text') return undefined;
    let current = true;
    void file.blob.text().then((content) => current && setText(content));
    return () => {
      current = false;
    };
  }, [file, kind]);

  return (
    <ConfirmDialog
      open
      title={fileName}
      confirmLabel={t('files.download')}
      cancelLabel={t('files.close')}
      confirmDisabled={!file}
      onConfirm={() => file && onDownload(file)}
      onCancel={onClose}
    >
      <div className="case-preview">
        {failed ? (
          <p className="wh-alert" role="alert">
            {t('files.previewFailed')}
          </p>
        ) : !file ? (
          <Spinner label={t('files.previewDecrypting')} />
        ) : kind === 'image' ? (
          <img ref={showBlob} className="case-preview__image" alt={fileName} />
        ) : kind === 'audio' ? (
          // A reporter's recording has no captions to offer.
          // eslint-disable-next-line jsx-a11y/media-has-caption
          <audio ref={showBlob} className="case-preview__audio" controls aria-label={fileName} />
        ) : kind === 'text' ? (
          <pre className="case-preview__text">{text}</pre>
        ) : (
          <p>{t('files.previewUnavailable')}</p>
        )}
      </div>
    </ConfirmDialog>
  );
}
