/**
 * One line of text shaped for drawing: the Unicode bidi algorithm (bidi-js) gives each character its
 * embedding level, each character takes the first font that has it (marks, joiners, spaces and
 * punctuation stay with the font before them), each run of one level and one font is shaped by
 * HarfBuzz in its direction (joining, ligatures, conjuncts, marks, mirroring), and the runs are put
 * in visual order (UAX #9 rule L2). Positions are in em (multiply by the font size).
 */
import bidiModule from 'bidi-js';
import * as hb from 'harfbuzzjs';
import { KANA, fallbackOrder, loadFont, type FontId } from './fonts.js';

/** The glyphs of one cluster (what HarfBuzz could not split further) and the text they show. */
export type Cluster = {
  font: FontId;
  text: string;
  /** Where the cluster starts on the baseline and how far it advances (em). */
  x: number;
  width: number;
  glyphs: { gid: number; x: number; y: number; advance: number }[];
};

export type ShapedLine = { width: number; clusters: Cluster[] };

export type Direction = 'ltr' | 'rtl';

// bidi-js is CommonJS: its module.exports is the factory its types call the default export.
const bidi = (bidiModule as unknown as typeof bidiModule.default)();

/** Explicit bidi controls: they steer the levels, then are not drawn. */
const BIDI_CONTROL = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const BIDI_CONTROLS = new RegExp(BIDI_CONTROL.source, 'gu');
/** Characters that stay in the font of the character before them when it has them. */
const INHERITS = /^(?:[\p{M}\p{Zs}\p{P}\p{Nd}]|\u200c|\u200d|[\ufe00-\ufe0f])$/u;

/** The paragraph direction of a text: that of its first strong character (left to right if none). */
export function baseDirection(text: string): Direction {
  return bidi.getEmbeddingLevels(text, 'auto').paragraphs[0]?.level === 1 ? 'rtl' : 'ltr';
}

type Item = { start: number; end: number; level: number; font: FontId };

/** Runs of one embedding level and one font, in logical order (indices in UTF-16 units). */
function itemize(text: string, levels: Uint8Array, primary: 'regular' | 'bold', japanese: boolean): Item[] {
  const order = fallbackOrder(primary, japanese);
  const items: Item[] = [];
  let i = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const level = levels[i] ?? 0;
    const last = items.at(-1);
    if (BIDI_CONTROL.test(ch)) {
      i += ch.length;
      if (last) last.end = i;
      continue;
    }
    const font =
      last && INHERITS.test(ch) && loadFont(last.font).covers(cp)
        ? last.font
        : (order.find((id) => loadFont(id).covers(cp)) ?? primary);
    if (last && last.font === font && last.level === level) last.end = i + ch.length;
    else items.push({ start: i, end: i + ch.length, level, font });
    i += ch.length;
  }
  return items;
}

/** Shapes text[item] with the whole line as context; clusters in visual order, x from 0. */
function shapeItem(text: string, item: Item): { width: number; clusters: Cluster[] } {
  const f = loadFont(item.font);
  const buffer = new hb.Buffer();
  buffer.addText(text, item.start, item.end - item.start);
  buffer.setDirection(item.level % 2 ? hb.Direction.RTL : hb.Direction.LTR);
  buffer.guessSegmentProperties();
  buffer.setFlags(hb.BufferFlag.REMOVE_DEFAULT_IGNORABLES);
  hb.shape(f.font, buffer);
  const glyphs = buffer.getGlyphInfosAndPositions();
  // Each cluster's text runs from its start to the next cluster start in logical order.
  const starts = [...new Set(glyphs.map((g) => g.cluster))].sort((a, b) => a - b);
  const endOf = (c: number) => starts.find((s) => s > c) ?? item.end;
  const clusters: Cluster[] = [];
  let x = 0;
  let last = -1;
  for (const g of glyphs) {
    if (g.cluster !== last) {
      const clusterText = text.slice(g.cluster, endOf(g.cluster)).replace(BIDI_CONTROLS, '');
      clusters.push({ font: item.font, text: clusterText, x, width: 0, glyphs: [] });
      last = g.cluster;
    }
    const advance = (g.xAdvance ?? 0) / f.unitsPerEm;
    clusters
      .at(-1)!
      .glyphs.push({ gid: g.codepoint, x: x + (g.xOffset ?? 0) / f.unitsPerEm, y: (g.yOffset ?? 0) / f.unitsPerEm, advance });
    clusters.at(-1)!.width += advance;
    x += advance;
  }
  return { width: x, clusters };
}

/** UAX #9 L2: from the highest level down to the lowest odd one, reverse every run at that level or above. */
function visualOrder<T extends { level: number }>(items: T[]): T[] {
  const out = [...items];
  const max = Math.max(0, ...out.map((i) => i.level));
  const minOdd = Math.min(...out.map((i) => (i.level % 2 ? i.level : i.level + 1)), max + 1);
  for (let level = max; level >= minOdd; level--) {
    for (let i = 0; i < out.length;) {
      if (out[i]!.level < level) {
        i++;
        continue;
      }
      let j = i;
      while (j < out.length && out[j]!.level >= level) j++;
      out.splice(i, j - i, ...out.slice(i, j).reverse());
      i = j;
    }
  }
  return out;
}

/**
 * Shapes one line (no line breaks inside) in the paragraph direction `dir`; `japanese` (the whole
 * paragraph has kana, by default this line) draws Han in Japanese forms.
 */
export function shapeLine(text: string, primary: 'regular' | 'bold', dir: Direction, japanese = KANA.test(text)): ShapedLine {
  if (!text) return { width: 0, clusters: [] };
  const { levels } = bidi.getEmbeddingLevels(text, dir);
  const shaped = visualOrder(
    itemize(text, levels, primary, japanese).map((item) => ({ level: item.level, ...shapeItem(text, item) })),
  );
  const clusters: Cluster[] = [];
  let x = 0;
  for (const run of shaped) {
    for (const c of run.clusters) clusters.push({ ...c, x: c.x + x, glyphs: c.glyphs.map((g) => ({ ...g, x: g.x + x })) });
    x += run.width;
  }
  return { width: x, clusters };
}
