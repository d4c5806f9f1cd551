import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Spinner } from '@whistle/ui';
import type { PdfDocument } from '../case/pdf-document';

type PdfState = { phase: 'opening' } | { phase: 'failed' } | { phase: 'open'; document: PdfDocument };

/** The widest a page is drawn (CSS pixels): the dialog's width on a laptop. */
const PAGE_WIDTH = 720;

/**
 * A decrypted PDF drawn in the page, one page at a time on a canvas, with page navigation. pdf.js is loaded here,
 * when the preview opens (its own chunks: neither the list nor the case page carries it); the file stays in memory
 * and the document with its worker is closed with the dialog. A file pdf.js cannot read says so, and the download
 * stays offered beside it.
 */
export function PdfPreview({ blob, fileName }: { blob: Blob; fileName: string }) {
  const { t } = useTranslation('incidents');
  const [state, setState] = useState<PdfState>({ phase: 'opening' });
  const [page, setPage] = useState(1);
  const [drawFailed, setDrawFailed] = useState(false);
  const canvas = useRef<HTMLCanvasElement>(null);
  const nav = useRef<HTMLElement>(null);
  const turned = useRef(false);

  useEffect(() => {
    let current = true;
    let opened: PdfDocument | undefined;
    void (async () => {
      try {
        const [{ openPdf }, bytes] = await Promise.all([import('../case/pdf-document'), blob.arrayBuffer()]);
        opened = await openPdf(new Uint8Array(bytes));
        if (current) setState({ phase: 'open', document: opened });
        else opened.close();
      } catch {
        if (current) setState({ phase: 'failed' });
      }
    })();
    return () => {
      current = false;
      opened?.close();
    };
  }, [blob]);

  const document = state.phase === 'open' ? state.document : undefined;
  useEffect(() => {
    if (!document || !canvas.current) return;
    setDrawFailed(false);
    const width = Math.min(PAGE_WIDTH, canvas.current.parentElement?.clientWidth || PAGE_WIDTH);
    document.render(page, canvas.current, width).catch((error: unknown) => {
      // A page turned before the last one was drawn cancels that drawing: not a failure.
      if ((error as { name?: string }).name !== 'RenderingCancelledException') setDrawFailed(true);
    });
  }, [document, page]);

  // On the first or the last page the button just pressed is disabled, which drops the focus out of the dialog
  // (Escape would no longer close it): it goes to the other one.
  useEffect(() => {
    const active = window.document.activeElement;
    if (!turned.current || !nav.current) return;
    if (active instanceof HTMLButtonElement && !active.disabled && nav.current.contains(active)) return;
    nav.current.querySelector<HTMLButtonElement>('button:not(:disabled)')?.focus();
  }, [page]);
  const turn = (to: number) => {
    turned.current = true;
    setPage(to);
  };

  if (state.phase === 'failed')
    return (
      <p className="wh-alert" role="alert">
        {t('files.pdfFailed')}
      </p>
    );
  if (!document) return <Spinner label={t('files.pdfOpening')} />;
  const pages = document.pages;
  return (
    <div className="case-pdf wh-stack">
      {pages > 1 && (
        <nav ref={nav} className="case-pdf__pages" aria-label={t('files.pdfPages')}>
          <Button variant="secondary" disabled={page <= 1} onClick={() => turn(page - 1)}>
            {t('list.previous')}
          </Button>
          <span aria-live="polite">{t('list.page', { page, pages })}</span>
          <Button variant="secondary" disabled={page >= pages} onClick={() => turn(page + 1)}>
            {t('list.next')}
          </Button>
        </nav>
      )}
      <div className="case-pdf__page">
        <canvas ref={canvas} role="img" aria-label={t('files.pdfCanvas', { name: fileName, page, pages })} />
      </div>
      {drawFailed && (
        <p className="wh-alert" role="alert">
          {t('files.pdfFailed')}
        </p>
      )}
    </div>
  );
}
