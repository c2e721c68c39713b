/**
 * A font as a PDF composite font (Type0, Identity-H, CIDFontType2): the FontFile2 is the HarfBuzz
 * subset of the glyphs drawn (ids kept), each CID names one of them with the text it shows.
 * Deterministic: CIDs are numbered in drawing order and the subset tag is derived from the subset.
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { PDFRawStream, PDFString, type PDFArray, type PDFContext, type PDFRef } from 'pdf-lib';
import type { LoadedFont } from './fonts.js';
import { subsetGlyphs } from './subset.js';

const NAMES: Record<string, string> = {
  regular: 'NotoSans-Regular',
  bold: 'NotoSans-Bold',
  arabic: 'NotoSansArabic-Regular',
  hebrew: 'NotoSansHebrew-Regular',
  jp: 'NotoSansJP-Regular',
  sc: 'NotoSansSC-Regular',
};

/**
 * The glyphs one document drew in one font. Each (glyph, text, width) gets its own CID, mapped to its
 * glyph by /CIDToGIDMap and to its text by /ToUnicode: the visible glyphs map to nothing and take no
 * width; each cluster's invisible carrier (see PdfText.draw) maps to the cluster's whole text and
 * spans its width. So a glyph drawn for different texts (a shared dot or base shape, a reordered
 * vowel sign) never says the wrong one, and copying and extraction read each cluster in place.
 */
export class FontUse {
  readonly ref: PDFRef;
  private readonly cids = new Map<string, { cid: number; gid: number; text?: string; width: number }>();

  constructor(
    readonly font: LoadedFont,
    context: PDFContext,
  ) {
    this.ref = context.nextRef();
  }

  /** The CID drawing glyph `gid` for `text` (none: shows nothing) with `width` in em. */
  cid(gid: number, text: string | undefined, width: number): number {
    const w = Math.round(width * 1000);
    const key = `${gid}:${w}:${text ?? ''}`;
    let entry = this.cids.get(key);
    if (!entry) {
      entry = { cid: this.cids.size + 1, gid, text, width: w };
      this.cids.set(key, entry);
    }
    return entry.cid;
  }

  /** Writes the font's objects (once every page is drawn). */
  write(context: PDFContext): void {
    const f = this.font;
    const entries = [...this.cids.values()];
    const bytes = subsetGlyphs(
      f.bytes,
      entries.map((e) => e.gid),
    );
    const tag = [...createHash('sha256').update(bytes).digest().subarray(0, 6)]
      .map((b) => String.fromCharCode(65 + (b % 26)))
      .join('');
    const name = `${tag}+${NAMES[f.id]}`;
    const em = (v: number) => Math.round((v * 1000) / f.unitsPerEm);
    const file = context.register(flate(context, bytes, { Length1: bytes.length }));
    const table = f.font.face.referenceTable('head')!;
    const head = new DataView(table.buffer, table.byteOffset, table.byteLength);
    const bbox = [36, 38, 40, 42].map((o) => em(head.getInt16(o)));
    const descriptor = context.register(
      context.obj({
        Type: 'FontDescriptor',
        FontName: name,
        Flags: 4,
        FontBBox: bbox,
        ItalicAngle: 0,
        Ascent: em(f.ascender),
        Descent: em(f.descender),
        CapHeight: em(f.ascender),
        StemV: 80,
        FontFile2: file,
      }),
    );
    const cidFont = context.register(
      context.obj({
        Type: 'Font',
        Subtype: 'CIDFontType2',
        BaseFont: name,
        CIDSystemInfo: { Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Identity'), Supplement: 0 },
        FontDescriptor: descriptor,
        W: this.widths(context, entries),
        CIDToGIDMap: context.register(flate(context, cidToGid(entries))),
      }),
    );
    const toUnicode = context.register(flate(context, Buffer.from(cmap(entries), 'latin1')));
    context.assign(
      this.ref,
      context.obj({
        Type: 'Font',
        Subtype: 'Type0',
        BaseFont: name,
        Encoding: 'Identity-H',
        DescendantFonts: [cidFont],
        ToUnicode: toUnicode,
      }),
    );
  }

  /** /W: every CID (numbered from 1) with its width. */
  private widths(context: PDFContext, entries: { width: number }[]): PDFArray {
    return context.obj([1, entries.map((e) => e.width)]);
  }
}

/** A stream compressed by Node's zlib (pdf-lib's own deflate is JavaScript, several times slower on a font file). */
function flate(context: PDFContext, bytes: Uint8Array, dict: Record<string, number> = {}): PDFRawStream {
  return PDFRawStream.of(context.obj({ ...dict, Filter: 'FlateDecode' }), deflateSync(bytes));
}

/** CID n's glyph id at bytes 2n, 2n+1 (CID 0: glyph 0). */
function cidToGid(entries: { cid: number; gid: number }[]): Uint8Array {
  const map = new Uint8Array((entries.length + 1) * 2);
  for (const e of entries) {
    map[e.cid * 2] = e.gid >> 8;
    map[e.cid * 2 + 1] = e.gid & 0xff;
  }
  return map;
}

function cmap(entries: { cid: number; text?: string }[]): string {
  const hex = (s: string) =>
    [...s]
      .flatMap((ch) => {
        const cp = ch.codePointAt(0)!;
        if (cp < 0x10000) return [cp];
        const v = cp - 0x10000;
        return [0xd800 + (v >> 10), 0xdc00 + (v & 0x3ff)];
      })
      .map((u) => u.toString(16).padStart(4, '0'))
      .join('');
  const mapped = entries.filter((e) => e.text).map((e): [number, string] => [e.cid, e.text!]);
  const chunks: string[] = [];
  for (let i = 0; i < mapped.length; i += 100) {
    const part = mapped.slice(i, i + 100);
    chunks.push(
      `${part.length} beginbfchar\n${part.map(([g, t]) => `<${g.toString(16).padStart(4, '0')}> <${hex(t)}>`).join('\n')}\nendbfchar`,
    );
  }
  return [
    '/CIDInit /ProcSet findresource begin',
    '12 dict begin',
    'begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def',
    '/CMapType 2 def',
    '1 begincodespacerange',
    '<0000> <ffff>',
    'endcodespacerange',
    ...chunks,
    'endcmap',
    'CMapName currentdict /CMapResource defineresource pop',
    'end',
    'end',
  ].join('\n');
}
