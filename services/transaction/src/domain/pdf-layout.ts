import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { fieldInvalid } from './errors.js';
import type { AnchorHit, DocumentLayout } from './field-placement.js';

/** Anchors are looked for in the first pages only: a document longer than this has its tags there or not at all. */
export const MAX_ANCHOR_PAGES = 1000;

type TextItem = { str: string; width: number; height: number; transform: number[] };

/**
 * The pages (crop box sizes) of a PDF and where each of `anchors` occurs in its text, read with
 * pdf.js (pdfjs-dist: the text positions its viewer uses). Coordinates as fields use them: points
 * from the crop box's lower-left corner. An anchor inside a longer text run is placed by its share of
 * the run's characters (exact for a tag in a run of its own, close for proportional fonts). No
 * scripts run (isEvalSupported off), no fonts are loaded. A PDF pdf.js cannot read is a 400.
 */
export async function readLayout(bytes: Uint8Array, anchors: ReadonlySet<string>): Promise<DocumentLayout> {
  const task = getDocument({
    // pdf.js takes ownership of (and may detach) the buffer it is given: a copy.
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  try {
    const doc = await task.promise.catch(() => {
      throw fieldInvalid('document', 'its pages could not be read to place the fields');
    });
    const pages: DocumentLayout['pages'] = [];
    const found = new Map<string, AnchorHit[]>([...anchors].map((a) => [a, []]));
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const [x0, y0, x1, y1] = page.view as [number, number, number, number];
      pages.push({ width: x1 - x0, height: y1 - y0 });
      if (anchors.size && n <= MAX_ANCHOR_PAGES) {
        const text = await page.getTextContent();
        for (const item of text.items as TextItem[]) collectHits(item, n, x0, y0, found);
      }
      page.cleanup();
    }
    return { pages, anchors: found };
  } finally {
    await task.destroy();
  }
}

function collectHits(item: TextItem, page: number, x0: number, y0: number, found: Map<string, AnchorHit[]>): void {
  if (!item.str || !item.transform) return;
  const chars = [...item.str];
  const [a, b, , , e, f] = item.transform as [number, number, number, number, number, number];
  // Horizontal runs only: a rotated tag has no upright box to put a field in.
  if (Math.abs(b) > 1e-6 || a <= 0) return;
  for (const [anchor, hits] of found) {
    let from = 0;
    for (;;) {
      const at = item.str.indexOf(anchor, from);
      if (at < 0) break;
      const before = [...item.str.slice(0, at)].length;
      const len = [...anchor].length;
      const perChar = chars.length ? item.width / chars.length : 0;
      hits.push({
        page,
        x: e - x0 + before * perChar,
        y: f - y0,
        width: Math.max(len * perChar, 1),
        height: Math.max(item.height, 1),
      });
      from = at + anchor.length;
    }
  }
}
