/**
 * Glyph subsetting with HarfBuzz's subsetter (harfbuzzjs's harfbuzz-subset.wasm, the one subset-font
 * runs): keeps exactly the glyphs a document drew, at their original glyph ids (retain-gids), so the
 * ids HarfBuzz shaped with are the PDF's CIDs (CIDToGIDMap /Identity). Layout tables and hinting are
 * dropped: the text is already shaped, and a PDF viewer only draws outlines.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

type SubsetExports = {
  memory: { buffer: ArrayBuffer };
  _initialize(): void;
  malloc(n: number): number;
  free(p: number): void;
  hb_blob_create(data: number, length: number, mode: number, user: number, destroy: number): number;
  hb_blob_destroy(blob: number): void;
  hb_blob_get_data(blob: number, length: number): number;
  hb_blob_get_length(blob: number): number;
  hb_face_create(blob: number, index: number): number;
  hb_face_destroy(face: number): void;
  hb_face_reference_blob(face: number): number;
  hb_set_add(set: number, value: number): void;
  hb_subset_input_create_or_fail(): number;
  hb_subset_input_destroy(input: number): void;
  hb_subset_input_glyph_set(input: number): number;
  hb_subset_input_set(input: number, which: number): number;
  hb_subset_input_get_flags(input: number): number;
  hb_subset_input_set_flags(input: number, flags: number): void;
  hb_subset_or_fail(face: number, input: number): number;
};

type WasmApi = {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
};

const HB_MEMORY_MODE_READONLY = 1;
const HB_SUBSET_SETS_DROP_TABLE_TAG = 3;
const HB_SUBSET_FLAGS_NO_HINTING = 0x1;
const HB_SUBSET_FLAGS_RETAIN_GIDS = 0x2;
const HB_SUBSET_FLAGS_NO_LAYOUT_CLOSURE = 0x200;
/** Tables a PDF's CIDFontType2 never reads. */
const DROP = ['GSUB', 'GPOS', 'GDEF', 'BASE', 'JSTF', 'MATH', 'vhea', 'vmtx', 'VORG', 'DSIG', 'kern', 'morx', 'STAT'];

let wasm: SubsetExports | undefined;
/** Each font file's HarfBuzz face in the subsetter, made once: the file is copied into wasm memory once. */
const faces = new WeakMap<Uint8Array, number>();

function harfbuzzSubset(): SubsetExports {
  if (!wasm) {
    const require = createRequire(import.meta.url);
    // WebAssembly is a Node global; @types/node (without the DOM lib) does not declare it.
    const wa = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
    const module = new wa.Module(readFileSync(require.resolve('harfbuzzjs/dist/harfbuzz-subset.wasm')));
    wasm = new wa.Instance(module, {}).exports as SubsetExports;
    wasm._initialize();
  }
  return wasm;
}

const tag = (s: string) => [...s].reduce((a, ch) => a * 256 + ch.charCodeAt(0), 0);

/** The font reduced to `glyphs` (glyph 0, .notdef, always kept), every glyph keeping its id. */
export function subsetGlyphs(font: Uint8Array, glyphs: Iterable<number>): Uint8Array {
  const hb = harfbuzzSubset();
  const input = hb.hb_subset_input_create_or_fail();
  if (!input) throw new Error('hb_subset_input_create_or_fail failed');
  let face = faces.get(font);
  if (face === undefined) {
    const data = hb.malloc(font.byteLength);
    new Uint8Array(hb.memory.buffer).set(font, data);
    const blob = hb.hb_blob_create(data, font.byteLength, HB_MEMORY_MODE_READONLY, 0, 0);
    face = hb.hb_face_create(blob, 0);
    hb.hb_blob_destroy(blob);
    faces.set(font, face);
  }
  try {
    const set = hb.hb_subset_input_glyph_set(input);
    hb.hb_set_add(set, 0);
    for (const g of glyphs) hb.hb_set_add(set, g);
    const drop = hb.hb_subset_input_set(input, HB_SUBSET_SETS_DROP_TABLE_TAG);
    for (const t of DROP) hb.hb_set_add(drop, tag(t));
    hb.hb_subset_input_set_flags(
      input,
      hb.hb_subset_input_get_flags(input) |
        HB_SUBSET_FLAGS_RETAIN_GIDS |
        HB_SUBSET_FLAGS_NO_HINTING |
        HB_SUBSET_FLAGS_NO_LAYOUT_CLOSURE,
    );
    const subset = hb.hb_subset_or_fail(face, input);
    if (!subset) throw new Error('hb_subset_or_fail failed');
    const out = hb.hb_face_reference_blob(subset);
    const ptr = hb.hb_blob_get_data(out, 0);
    const bytes = new Uint8Array(hb.memory.buffer, ptr, hb.hb_blob_get_length(out)).slice();
    hb.hb_blob_destroy(out);
    hb.hb_face_destroy(subset);
    return bytes;
  } finally {
    hb.hb_subset_input_destroy(input);
  }
}
