/**
 * The signers' field values drawn into the document (issue 33): one incremental update after the
 * original (revision 1 stays byte for byte), each value at its places on the document's own pages.
 * Text in any script goes through ./text (HarfBuzz, Noto); a drawn signature or initials is the PNG
 * the transaction service re-encoded, fitted into its box keeping its proportions; a ticked checkbox
 * is a check mark drawn with lines. Coordinates are PDF points from the lower-left corner of the
 * page's crop box, as the fields were placed (transaction service, domain/form-fields.ts).
 */
import { rgb, type PDFDocument, type PDFPage } from 'pdf-lib';
import type { PdfUpdate } from './signed-pdf.js';
import { withIncrementalUpdate } from './incremental.js';
import { PdfText, baseDirection } from './text/index.js';

export type StampPlace = { page: number; x: number; y: number; width: number; height: number };
/** One field's value as drawn: text (typed mark, text, dropdown, name, e-mail, date), a tick, or a drawn PNG. */
export type StampedField = { places: StampPlace[] } & ({ text: string } | { checked: boolean } | { png: Buffer });

const INK = rgb(0.05, 0.1, 0.35);
const MAX_TEXT_SIZE = 12;
const MIN_TEXT_SIZE = 4;

/** The crop box's lower-left corner: where a field's (0, 0) is on the page. */
function originOf(page: PDFPage): { x: number; y: number } {
  const box = page.getCropBox();
  return { x: box.x, y: box.y };
}

function drawText(fonts: PdfText, page: PDFPage, text: string, p: StampPlace): void {
  const dir = baseDirection(text);
  let size = Math.max(MIN_TEXT_SIZE, Math.min(MAX_TEXT_SIZE, p.height * 0.7));
  const width = fonts.width(text, { size }, dir);
  // Shrunk to fit its box (down to a legible minimum); a longer value is cut by the box's width then.
  if (width > p.width) size = Math.max(MIN_TEXT_SIZE, (size * p.width) / width);
  const o = originOf(page);
  const baseline = p.y + Math.max(0, (p.height - size) / 2) + size * 0.2;
  const x = dir === 'rtl' ? p.x + Math.max(0, p.width - fonts.width(text, { size }, dir)) : p.x;
  fonts.draw(page, text, o.x + x, o.y + baseline, { size, color: INK }, dir);
}

function drawTick(page: PDFPage, p: StampPlace): void {
  const o = originOf(page);
  const s = Math.min(p.width, p.height);
  const x = o.x + p.x + (p.width - s) / 2;
  const y = o.y + p.y + (p.height - s) / 2;
  const thickness = Math.max(1, s / 8);
  page.drawLine({ start: { x: x + s * 0.15, y: y + s * 0.5 }, end: { x: x + s * 0.4, y: y + s * 0.2 }, thickness, color: INK });
  page.drawLine({ start: { x: x + s * 0.4, y: y + s * 0.2 }, end: { x: x + s * 0.85, y: y + s * 0.85 }, thickness, color: INK });
}

async function drawImages(doc: PDFDocument, page: PDFPage, png: Buffer, places: StampPlace[]): Promise<void> {
  const image = await doc.embedPng(png);
  const o = originOf(page);
  for (const p of places) {
    const scale = Math.min(p.width / image.width, p.height / image.height);
    const w = image.width * scale;
    const h = image.height * scale;
    page.drawImage(image, { x: o.x + p.x + (p.width - w) / 2, y: o.y + p.y + (p.height - h) / 2, width: w, height: h });
  }
}

/**
 * The update that draws `fields` on the document's pages. A place on a page the document does not
 * have is an error (the transaction service placed every field on an existing page). Nothing is
 * appended when there is nothing to draw: the caller then passes no update at all.
 */
export function fieldsStamp(fields: StampedField[]): PdfUpdate {
  return (pdf) =>
    withIncrementalUpdate(pdf, async (doc) => {
      const fonts = new PdfText(doc);
      const pages = doc.getPages();
      const pageOf = (n: number) => {
        const page = pages[n - 1];
        if (!page) throw new Error(`a field is placed on page ${n}, which the document does not have`);
        return page;
      };
      for (const f of fields) {
        if ('png' in f) {
          for (const [n, places] of groupByPage(f.places)) await drawImages(doc, pageOf(n), f.png, places);
          continue;
        }
        for (const p of f.places) {
          if ('checked' in f) {
            if (f.checked) drawTick(pageOf(p.page), p);
          } else if (f.text) drawText(fonts, pageOf(p.page), f.text, p);
        }
      }
      fonts.finish();
    });
}

/**
 * The stamped fields as the transaction service sent them (transaction.verified fields_json): a drawn
 * mark's PNG as base64. A malformed list is an error (the document then cannot be sealed as asked).
 */
export function parseStampedFields(json: string): StampedField[] {
  const list = JSON.parse(json) as unknown;
  if (!Array.isArray(list)) throw new Error('fields_json is not a list');
  return list.map((raw): StampedField => {
    const f = raw as { places?: StampPlace[]; text?: unknown; checked?: unknown; png?: unknown };
    if (!Array.isArray(f.places)) throw new Error('a stamped field has no places');
    const places = f.places.map((p) => ({ page: p.page, x: p.x, y: p.y, width: p.width, height: p.height }));
    if (typeof f.png === 'string') return { places, png: Buffer.from(f.png, 'base64') };
    if (typeof f.checked === 'boolean') return { places, checked: f.checked };
    if (typeof f.text === 'string') return { places, text: f.text };
    throw new Error('a stamped field has no value');
  });
}

function groupByPage(places: StampPlace[]): Map<number, StampPlace[]> {
  const out = new Map<number, StampPlace[]>();
  for (const p of places) out.set(p.page, [...(out.get(p.page) ?? []), p]);
  return out;
}
