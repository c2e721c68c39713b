/**
 * PDF pages rendered in the browser with pdf.js (pdfjs-dist, the transaction service's version), for
 * the signing page's fields and the dashboard's template editor. pdf.js is loaded on first use (its
 * own chunk, so pages that never show a PDF do not fetch it); its worker is a bundled asset from
 * 'self' (CSP `worker-src 'self'`), and `isEvalSupported: false` keeps it from compiling fonts with
 * `new Function` (no 'unsafe-eval' in any page's CSP).
 *
 * Coordinates: the API places a box in PDF points from the lower-left corner of the page as shown
 * (its crop box). `boxStyle` turns one into percentages of the rendered page, so an overlay stays on
 * its box at any width without being recomputed.
 */
import './pdf.css';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

type PdfJs = typeof import('pdfjs-dist');
export type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;

let lib: Promise<PdfJs> | undefined;
function pdfjs(): Promise<PdfJs> {
  lib ??= import('pdfjs-dist').then((m) => {
    m.GlobalWorkerOptions.workerSrc = workerUrl;
    return m;
  });
  return lib;
}

/** Opens a PDF from its bytes (the caller fetched them: the request carries what the page needs). */
export async function openPdf(data: ArrayBuffer): Promise<PdfDocument> {
  const m = await pdfjs();
  return m.getDocument({
    data: new Uint8Array(data),
    isEvalSupported: false,
    enableXfa: false,
    // No font, cmap or wasm downloads: fonts not embedded fall back to the system's.
    useSystemFonts: true,
    disableFontFace: false,
  }).promise;
}

/** A page's size in points as shown (rotation applied). */
export type PageSize = { width: number; height: number };

export type RenderedPage = PageSize & { number: number; element: HTMLDivElement };

/**
 * Renders pages 1..n into `.pdf-page` boxes (position: relative, the canvas at 100 % width) appended
 * to `into`, sized for `cssWidth` pixels at the device's pixel ratio. Each box is placed (with its
 * aspect ratio) before any page is drawn, so overlays can be added at once.
 */
export async function renderPages(
  doc: PdfDocument,
  into: HTMLElement,
  cssWidth: number,
  label: (n: number, of: number) => string,
): Promise<{ pages: RenderedPage[]; drawn: Promise<void> }> {
  const pages: RenderedPage[] = [];
  const proxies = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const p = await doc.getPage(n);
    const vp = p.getViewport({ scale: 1 });
    const element = document.createElement('div');
    element.className = 'pdf-page';
    element.dataset.page = String(n);
    element.style.aspectRatio = `${vp.width} / ${vp.height}`;
    const canvas = document.createElement('canvas');
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', label(n, doc.numPages));
    element.append(canvas);
    into.append(element);
    pages.push({ number: n, width: vp.width, height: vp.height, element });
    proxies.push({ p, canvas, width: vp.width });
  }
  const drawn = (async () => {
    const ratio = Math.min(window.devicePixelRatio || 1, 3);
    for (const { p, canvas, width } of proxies) {
      const scale = (Math.max(cssWidth, 200) * ratio) / width;
      const vp = p.getViewport({ scale });
      canvas.width = Math.round(vp.width);
      canvas.height = Math.round(vp.height);
      await p.render({ canvas, viewport: vp }).promise;
      canvas.dataset.rendered = 'true';
    }
  })();
  return { pages, drawn };
}

/** A box in PDF points (lower-left origin) as CSS percentages of its page. */
export function boxStyle(page: PageSize, b: { x: number; y: number; width: number; height: number }) {
  const pct = (fraction: number) => `${(fraction * 100).toFixed(4)}%`;
  return {
    left: pct(b.x / page.width),
    top: pct((page.height - b.y - b.height) / page.height),
    width: pct(b.width / page.width),
    height: pct(b.height / page.height),
  };
}

/** The inverse of boxStyle: a box in CSS pixels within a page rendered `shownWidth` pixels wide, in points. */
export function toPoints(page: PageSize, shownWidth: number, px: { left: number; top: number; width: number; height: number }) {
  const k = page.width / shownWidth;
  const round = (v: number) => Math.round(v * 100) / 100;
  return {
    x: round(px.left * k),
    y: round(page.height - (px.top + px.height) * k),
    width: round(px.width * k),
    height: round(px.height * k),
  };
}
