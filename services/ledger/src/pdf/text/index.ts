/**
 * Text in any script on the ledger's PDF pages (issue 32): every string is shaped by HarfBuzz with
 * the Noto fonts (fonts.ts, shape.ts), wrapped between words (../wrap.ts), and drawn glyph by glyph
 * at HarfBuzz's positions in composite fonts holding only the glyphs the document used (embed.ts).
 * One `PdfText` per document: draw everything, then `finish()` once before saving.
 */
import {
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFOperator,
  PDFOperatorNames,
  type PDFObject,
  beginText,
  endText,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  setFillingColor,
  setFontAndSize,
  setTextMatrix,
  setTextRenderingMode,
  TextRenderingMode,
  showText,
  type PDFDocument,
  type PDFPage,
  type RGB,
} from 'pdf-lib';
import { wrapLines } from '../wrap.js';
import { FontUse } from './embed.js';
import { subsetGlyphs } from './subset.js';
import { KANA, loadFont, type FontId } from './fonts.js';
import { baseDirection, shapeLine, type Direction, type ShapedLine } from './shape.js';

export { baseDirection, type Direction } from './shape.js';

export type TextStyle = { size: number; bold?: boolean; color?: RGB };

/** What every line of one value shares: its direction, and whether it is Japanese (has kana). */
export type Paragraph = { dir: Direction; japanese: boolean };

export const paragraphOf = (value: string): Paragraph => ({ dir: baseDirection(value), japanese: KANA.test(value) });

/** A paragraph as given: whole, or only its direction (Japanese then if `text` has kana), or none (from `text`). */
const paragraphFor = (text: string, given?: Paragraph | Direction): Paragraph =>
  typeof given === 'string' ? { dir: given, japanese: KANA.test(text) } : (given ?? paragraphOf(text));

/**
 * Opens Noto Sans (regular and bold) and compiles the subsetter before the first document: done at
 * start, so the first certificate.pdf (a call with a deadline) does not pay for it. The script fonts
 * open when a text first needs them.
 */
export function warmUpText(): void {
  for (const primary of ['regular', 'bold'] as const) {
    const line = shapeLine('Signet', primary, 'ltr');
    subsetGlyphs(loadFont(primary).bytes, [line.clusters[0]!.glyphs[0]!.gid]);
  }
}

let missingObserver: ((count: number) => void) | undefined;

/**
 * Told, once per finished document, how many characters it drew with no glyph in any of the fonts
 * (shown as the missing-glyph box): the service counts them (signet_ledger_pdf_missing_glyphs_total),
 * so a script people use and the fonts lack shows up. One observer per process, set at start.
 */
export function observeMissingGlyphs(observer: ((count: number) => void) | undefined): void {
  missingObserver = observer;
}

export class PdfText {
  private readonly uses = new Map<FontId, FontUse>();
  private readonly pageFonts = new WeakMap<PDFPage, Map<FontId, PDFName>>();
  private readonly shaped = new Map<string, ShapedLine>();
  private finished = false;
  private missing = 0;

  constructor(private readonly doc: PDFDocument) {}

  private shape(text: string, bold: boolean | undefined, { dir, japanese }: Paragraph): ShapedLine {
    const key = `${bold ? 'b' : 'r'}${dir}${japanese ? 'j' : ''}:${text}`;
    let line = this.shaped.get(key);
    if (!line) {
      line = shapeLine(text, bold ? 'bold' : 'regular', dir, japanese);
      this.shaped.set(key, line);
    }
    return line;
  }

  /** The width of one line of `text` in points. */
  width(text: string, style: TextStyle, paragraph?: Paragraph | Direction): number {
    return this.shape(text, style.bold, paragraphFor(text, paragraph)).width * style.size;
  }

  /** `text` broken into lines no wider than `maxWidth` (between words where it can). */
  wrap(text: string, maxWidth: number, style: TextStyle): string[] {
    const paragraph = paragraphOf(text);
    return wrapLines(text, (l) => this.width(l, style, paragraph) <= maxWidth);
  }

  private use(font: FontId): FontUse {
    let use = this.uses.get(font);
    if (!use) {
      use = new FontUse(loadFont(font), this.doc.context);
      this.uses.set(font, use);
    }
    return use;
  }

  private fontName(page: PDFPage, font: FontId): PDFName {
    let names = this.pageFonts.get(page);
    if (!names) this.pageFonts.set(page, (names = new Map()));
    let name = names.get(font);
    if (!name) {
      name = page.node.newFontDictionary('SgF', this.use(font).ref);
      names.set(font, name);
    }
    return name;
  }

  /**
   * Draws one line with its baseline's left end at (x, y): each glyph where HarfBuzz placed it, none
   * of them carrying text, then for each cluster an invisible glyph (render mode 3, as an OCR text
   * layer) on the baseline over the cluster's width carrying the cluster's text. Copying and
   * extraction read every cluster whole and in place, however its glyphs were reordered, combined
   * or shifted (a Devanagari vowel sign, Arabic dots, cursive attachment).
   */
  draw(page: PDFPage, text: string, x: number, y: number, style: TextStyle, paragraph?: Paragraph | Direction): void {
    if (this.finished) throw new Error('PdfText.draw after finish');
    const line = this.shape(text, style.bold, paragraphFor(text, paragraph));
    if (line.clusters.length === 0) return;
    for (const c of line.clusters) if (c.glyphs.some((g) => g.gid === 0)) this.missing += [...c.text].length;
    const at = (gx: number, gy: number) => setTextMatrix(1, 0, 0, 1, round(x + gx * style.size), round(y + gy * style.size));
    const ops: PDFOperator[] = [pushGraphicsState(), setFillingColor(style.color ?? rgb(0, 0, 0)), beginText()];
    for (const invisible of [false, true]) {
      if (invisible) ops.push(setTextRenderingMode(TextRenderingMode.Invisible));
      // Glyphs on the baseline go into TJ arrays, moved into place by TJ's adjustments (thousandths
      // of an em); a glyph raised or lowered (a mark) gets its own text matrix.
      let run: PDFObject[] = [];
      let pen: number | undefined;
      const flush = () => {
        if (run.length) ops.push(PDFOperator.of(PDFOperatorNames.ShowTextAdjusted, [this.doc.context.obj(run)]));
        run = [];
      };
      let current: FontId | undefined;
      for (const cluster of line.clusters) {
        if (cluster.font !== current) {
          flush();
          ops.push(setFontAndSize(this.fontName(page, cluster.font), style.size));
          current = cluster.font;
        }
        const use = this.use(cluster.font);
        const glyphs = invisible ? [{ gid: cluster.glyphs[0]!.gid, x: cluster.x, y: 0 }] : cluster.glyphs;
        for (const g of glyphs) {
          const cid = invisible ? use.cid(g.gid, cluster.text, cluster.width) : use.cid(g.gid, undefined, 0);
          const code = PDFHexString.of(cid.toString(16).padStart(4, '0'));
          if (g.y !== 0) {
            flush();
            ops.push(at(g.x, g.y), showText(code));
            pen = undefined;
            continue;
          }
          if (pen === undefined) {
            flush();
            ops.push(at(g.x, 0));
          } else if (Math.abs(g.x - pen) > 1e-6) run.push(PDFNumber.of(Math.round((pen - g.x) * 10_000) / 10));
          run.push(code);
          pen = g.x + (invisible ? Math.round(cluster.width * 1000) / 1000 : 0);
        }
      }
      flush();
    }
    ops.push(endText(), popGraphicsState());
    page.pushOperators(...ops);
  }

  /** Embeds the fonts (subset to the glyphs drawn); call once, after the last draw. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    for (const use of this.uses.values()) use.write(this.doc.context);
    if (this.missing > 0) missingObserver?.(this.missing);
  }
}

const round = (v: number) => Math.round(v * 1000) / 1000;
