/**
 * The TEST banner (test mode, issue 32 item 6): "TEST — not a valid signature" across the top of
 * every page of a test transaction's signed PDF — the document's own pages in an incremental update
 * after revision 1 (the original's bytes stay as uploaded), the audit-trail pages as they are drawn.
 */
import { PDFDocument, rgb, type PDFPage } from 'pdf-lib';
import type { PdfUpdate } from './signed-pdf.js';
import { withIncrementalUpdate } from './incremental.js';
import { PdfText } from './text/index.js';
import { TEST_BANNER } from './test-seal.js';

const RED = rgb(0.75, 0.05, 0.05);
const SIZE = 14;

/** Draws the banner near the top of the page's visible area (its crop box), left-aligned, shrunk to fit a narrow page. */
export function drawTestBanner(fonts: PdfText, page: PDFPage): void {
  const box = page.getCropBox();
  const width = fonts.width(TEST_BANNER, { size: SIZE, bold: true }, 'ltr');
  const size = Math.max(4, Math.min(SIZE, (SIZE * (box.width - 20)) / width));
  fonts.draw(page, TEST_BANNER, box.x + 10, box.y + box.height - size - 6, { size, bold: true, color: RED }, 'ltr');
}

/** The update that stamps every page the document has so far; a document without pages is returned as it is (no update). */
export function testStamp(): PdfUpdate {
  return async (pdf) => {
    if ((await PDFDocument.load(pdf, { updateMetadata: false, ignoreEncryption: true })).getPageCount() === 0) return pdf;
    return withIncrementalUpdate(pdf, async (doc) => {
      const fonts = new PdfText(doc);
      for (const page of doc.getPages()) drawTestBanner(fonts, page);
      fonts.finish();
    });
  };
}
