/**
 * The fonts every PDF of the ledger draws text with: Noto, from npm packages (OFL 1.1, pinned), read
 * once per process and opened in HarfBuzz (harfbuzzjs) for shaping. Nothing is fetched at run time.
 *
 * Noto Sans covers Latin (with diacritics), Greek, Cyrillic and Devanagari; what it lacks comes from
 * Noto Sans Arabic, Noto Sans Hebrew, and for Han, kana and symbols such as "→" Noto Sans JP (a text
 * with kana: Japanese forms) or Noto Sans SC.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as hb from 'harfbuzzjs';

export type FontId = 'regular' | 'bold' | 'arabic' | 'hebrew' | 'jp' | 'sc';

export type LoadedFont = {
  id: FontId;
  /** The whole font file (TrueType), subset per document when embedded. */
  bytes: Uint8Array;
  /** HarfBuzz font at its design scale (units per em). */
  font: hb.Font;
  unitsPerEm: number;
  ascender: number;
  descender: number;
  covers(cp: number): boolean;
};

const FILES: Record<FontId, string> = {
  regular: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
  bold: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
  arabic: '@expo-google-fonts/noto-sans-arabic/400Regular/NotoSansArabic_400Regular.ttf',
  hebrew: '@expo-google-fonts/noto-sans-hebrew/400Regular/NotoSansHebrew_400Regular.ttf',
  jp: '@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf',
  sc: '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
};

const require = createRequire(import.meta.url);
const loaded = new Map<FontId, LoadedFont>();

function load(id: FontId): LoadedFont {
  const bytes = new Uint8Array(readFileSync(require.resolve(FILES[id])));
  const face = new hb.Face(new hb.Blob(bytes));
  const font = new hb.Font(face);
  const unitsPerEm = face.upem;
  font.setScale(unitsPerEm, unitsPerEm);
  const unicodes = new Set(face.collectUnicodes());
  const extents = font.hExtents();
  return {
    id,
    bytes,
    font,
    unitsPerEm,
    ascender: extents.ascender,
    descender: extents.descender,
    covers: (cp) => unicodes.has(cp),
  };
}

/** One of the fonts, opened on first use and kept for the life of the process. */
export function loadFont(id: FontId): LoadedFont {
  let f = loaded.get(id);
  if (!f) {
    f = load(id);
    loaded.set(id, f);
  }
  return f;
}

/** Hiragana, katakana and their extensions: a text with any of them is Japanese. */
export const KANA = /[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]/u;

/**
 * The fonts to try, in order, for a text drawn in `primary` (regular or bold): the primary first,
 * then the script fonts; Japanese before Chinese for Japanese text (one with kana).
 */
export function fallbackOrder(primary: 'regular' | 'bold', japanese: boolean): FontId[] {
  const cjk: FontId[] = japanese ? ['jp', 'sc'] : ['sc', 'jp'];
  return primary === 'bold' ? ['bold', 'regular', 'arabic', 'hebrew', ...cjk] : ['regular', 'arabic', 'hebrew', ...cjk];
}
