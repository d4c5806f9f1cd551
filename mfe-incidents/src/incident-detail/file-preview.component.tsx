import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog, Spinner } from '@whistle/ui';
import type { DecryptedFile } from '@whistle/ui/report';
import { PdfPreview } from './pdf-preview.component';
import '../case/case.css';

/** What the page can show of a file. */
type PreviewKind = 'image' | 'text' | 'audio' | 'pdf' | 'none';

// Raster images only: an SVG is a document that can carry script and links.
const IMAGE_TYPES = /^image\/(?:png|jpeg|gif|webp|avif|bmp)$/;
const TEXT_TYPES = /^(?:text\/[\w.+-]+|application\/(?:json|xml))$/;

/** By the type the file was sent with (`mime_type`): a wrong one makes the element show nothing, never run it. */
export function previewKind(mimeType: string): PreviewKind {
  const type = mimeType.toLowerCase();
  if (IMAGE_TYPES.test(type)) return 'image';
  if (type.startsWith('audio/')) return 'audio';
  if (type === 'application/pdf') return 'pdf';
  if (TEXT_TYPES.test(type)) return 'text';
  return 'none';
}

/**
 * A decrypted file shown in a dialog labelled by its name: images and audio from an object URL (revoked when
 * the dialog closes, nothing is written to disk), text as text (never parsed as HTML), PDFs drawn by pdf.js on a
 * canvas (loaded only then). Other types offer the download only. `file` is undefined while it is being decrypted.
 */
export function FilePreview({
  fileName,
  mimeType,
  file,
  failed,
  onDownload,
  onClose,
}: {
  fileName: string;
  mimeType: string;
  file: DecryptedFile | undefined;
  failed: boolean;
  onDownload(file: DecryptedFile): void;
  onClose(): void;
}) {
  const { t } = useTranslation('incidents');
  const kind = previewKind(mimeType);
  const [text, setText] = useState<string>();
  // The object URL lives as long as the element showing it: made when it mounts, revoked when it goes.
  const showBlob = useCallback(
    (element: HTMLImageElement | HTMLAudioElement | null) => {
      if (!element || !file) return undefined;
      const url = URL.createObjectURL(new Blob([file.blob], { type: mimeType }));
      element.src = url;
      return () => URL.revokeObjectURL(url);
    },
    [file, mimeType],
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
        ) : kind === 'pdf' ? (
          <PdfPreview blob={file.blob} fileName={fileName} />
        ) : kind === 'text' ? (
          <pre className="case-preview__text">{text}</pre>
        ) : (
          <p>{t('files.previewUnavailable')}</p>
        )}
      </div>
    </ConfirmDialog>
  );
}
