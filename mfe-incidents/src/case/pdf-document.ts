import { getDocument, PDFWorker, type PDFDocumentProxy, type RenderTask } from 'pdfjs-dist';

/**
 * A decrypted PDF opened by pdf.js for the case page's preview, in memory only: this module and pdf.js come in a
 * chunk of their own, loaded when a PDF preview opens (never with the list or the case page), and the parsing runs
 * in pdf.js's worker, started from Whistle's own origin (the staff pages' Trusted Types let only such script URLs
 * through). Nothing is evaluated as code (the CSP allows no eval): pdf.js 6 compiles no glyphs to functions.
 */
export interface PdfDocument {
  pages: number;
  /** Draws one page (1-based) on the canvas, `cssWidth` pixels wide at most, sharp on high-density screens. */
  render(page: number, canvas: HTMLCanvasElement, cssWidth: number): Promise<void>;
  /** Ends the document, its worker and what they hold. */
  close(): void;
}

/**
 * pdf.js's own worker script, a file of its own (webpack copies it as an asset, unparsed: it is a module worker),
 * from Whistle's origin; the URL is made apart from `new Worker` so webpack does not bundle it as a worker entry.
 */
const WORKER_URL = new URL('pdfjs-dist/build/pdf.worker.min.mjs', import.meta.url);
const startWorker = () => new Worker(WORKER_URL, { type: 'module', name: 'whistle-pdf' });

export async function openPdf(bytes: Uint8Array): Promise<PdfDocument> {
  const port = startWorker();
  const worker = PDFWorker.create({ port });
  const task = getDocument({
    // pdf.js transfers what it is given to its worker: a copy, so the caller's bytes stay whole.
    data: bytes.slice(),
    worker,
    // No wasm decoders nor font files fetched from elsewhere; no XFA forms (HTML); nothing but the canvas.
    useWasm: false,
    enableXfa: false,
    stopAtErrors: false,
  });
  let document: PDFDocumentProxy;
  try {
    document = await task.promise;
  } catch (error) {
    void task.destroy();
    worker.destroy();
    port.terminate();
    throw error;
  }
  let drawing: RenderTask | undefined;
  return {
    pages: document.numPages,
    async render(pageNumber, canvas, cssWidth) {
      drawing?.cancel();
      const page = await document.getPage(pageNumber);
      const natural = page.getViewport({ scale: 1 });
      const density = window.devicePixelRatio || 1;
      const viewport = page.getViewport({ scale: (Math.min(cssWidth, natural.width * 2) / natural.width) * density });
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      canvas.style.width = `${Math.floor(viewport.width / density)}px`;
      const canvasContext = canvas.getContext('2d');
      if (!canvasContext) throw new Error('No 2D canvas');
      drawing = page.render({ canvas, canvasContext, viewport });
      try {
        await drawing.promise;
      } finally {
        page.cleanup();
      }
    },
    close() {
      drawing?.cancel();
      void task.destroy();
      worker.destroy();
      port.terminate();
    },
  };
}
