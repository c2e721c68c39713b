import { fieldInvalid } from './errors.js';
import type { FieldSpec, FormField, Rect } from './form-fields.js';

/** A page's size as shown (its crop box), in points. */
export type PageSize = { width: number; height: number };
/** Where an anchor text was found: its box on a page (same coordinates as a field). */
export type AnchorHit = Rect;
/** The document as placement needs it: its pages and, for each anchor asked for, where it occurs. */
export type DocumentLayout = { pages: PageSize[]; anchors: Map<string, AnchorHit[]> };

/** Rounded to a hundredth of a point: what is kept and compared. */
const r2 = (n: number) => Math.round(n * 100) / 100;

function rectsOf(spec: FieldSpec, layout: DocumentLayout, name: string): Rect[] {
  if ('rect' in spec.at) return [spec.at.rect];
  const at = spec.at;
  const hits = layout.anchors.get(at.anchor) ?? [];
  if (!hits.length) throw fieldInvalid(name, `anchor ${JSON.stringify(at.anchor)} is not found in the document's text`);
  return hits.map((h) => ({
    page: h.page,
    x: r2(h.x + at.offsetX),
    y: r2(h.y + at.offsetY),
    width: at.width ?? r2(h.width),
    height: at.height ?? r2(h.height),
  }));
}

function checkOnPage(rect: Rect, layout: DocumentLayout, name: string): void {
  const n = layout.pages.length;
  const page = layout.pages[rect.page - 1];
  if (!page) throw fieldInvalid(name, `page ${rect.page} does not exist (the document has ${n} page${n === 1 ? '' : 's'})`);
  const eps = 0.01;
  if (rect.x < -eps || rect.y < -eps || rect.x + rect.width > page.width + eps || rect.y + rect.height > page.height + eps)
    throw fieldInvalid(
      name,
      `lies outside page ${rect.page} (${r2(page.width)} × ${r2(page.height)} points): ` +
        `x ${rect.x} to ${r2(rect.x + rect.width)}, y ${rect.y} to ${r2(rect.y + rect.height)}`,
    );
}

const overlap = (a: Rect, b: Rect) =>
  a.page === b.page &&
  Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) > 0.01 &&
  Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) > 0.01;

/**
 * Places each field on the document: every rectangle on a page that exists and wholly inside it, an
 * anchor found at least once, and no field of one signer overlapping a field of another (one
 * signer's own fields may touch or overlap: they fill them all). `signerOf` maps a party's position
 * to its signer's index on the record. Refusals are 400s naming the field.
 */
export function placeFields(specs: FieldSpec[], layout: DocumentLayout, signerOf: (party: number) => number): FormField[] {
  const placed = specs.map((spec, i) => {
    const name = `fields[${i}] (${spec.id})`;
    const places = rectsOf(spec, layout, name);
    for (const p of places) checkOnPage(p, layout, name);
    return { spec, name, places };
  });
  for (let i = 0; i < placed.length; i++)
    for (let j = i + 1; j < placed.length; j++) {
      const a = placed[i]!;
      const b = placed[j]!;
      if (a.spec.party === b.spec.party) continue;
      const hit = a.places.find((p) => b.places.some((q) => overlap(p, q)));
      if (hit)
        throw fieldInvalid(
          b.name,
          `overlaps ${a.name} on page ${hit.page}: fields of two signers must not overlap (signer ${b.spec.party} and signer ${a.spec.party})`,
        );
    }
  return placed.map(({ spec, places }) => ({
    id: spec.id,
    type: spec.type,
    signer: signerOf(spec.party),
    required: spec.required,
    ...(spec.readonly ? { readonly: true } : {}),
    ...(spec.label ? { label: spec.label } : {}),
    ...('anchor' in spec.at ? { anchor: spec.at.anchor } : {}),
    places,
    ...(spec.maxLength !== undefined ? { max_length: spec.maxLength } : {}),
    ...(spec.pattern !== undefined ? { pattern: spec.pattern } : {}),
    ...(spec.options ? { options: spec.options } : {}),
    ...(spec.value !== undefined ? { value: spec.value } : {}),
  }));
}
