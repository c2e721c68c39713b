import { PDFDocument, StandardFonts } from 'pdf-lib';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { placeFields, type DocumentLayout } from './field-placement.js';
import { checkMark, checkSubmission, fieldsComplete } from './field-values.js';
import { compilePattern, parseFieldSpecs, type FormField } from './form-fields.js';
import { readLayout } from './pdf-layout.js';
import type { Party } from './signers.js';

const party = (role: Party['role'] = 'signer'): Party => ({
  name: 'A',
  email: 'a@example.com',
  role,
  order: 1,
  verification: 'liveness_only',
  webauthn: false,
});
const parties = [party(), party(), party('viewer')];
const at = { page: 1, x: 10, y: 10, width: 50, height: 20 };
const layout: DocumentLayout = {
  pages: [
    { width: 612, height: 792 },
    { width: 300, height: 300 },
  ],
  anchors: new Map([['{{sig}}', [{ page: 2, x: 100, y: 50, width: 40, height: 10 }]]]),
};
const place = (raw: unknown[]) => placeFields(parseFieldSpecs(raw, parties), layout, (p) => p);

describe('parseFieldSpecs', () => {
  it('defaults ids and required, keeps settings, refuses what does not fit the type', () => {
    const [f] = parseFieldSpecs([{ type: 'text', signer: 0, ...at, pattern: '[0-9]+', value: '42' }], parties);
    expect(f).toMatchObject({ id: 'field_1', required: true, readonly: false, maxLength: 200, pattern: '[0-9]+', value: '42' });
    expect(() => parseFieldSpecs([{ type: 'checkbox', signer: 0, ...at, options: ['a'] }], parties)).toThrow(
      /options apply to dropdown/,
    );
    expect(() => parseFieldSpecs([{ type: 'email', signer: 0, ...at, value: 'x' }], parties)).toThrow(/cannot be prefilled/);
    expect(() => parseFieldSpecs([{ type: 'text', signer: 0, ...at, readonly: true }], parties)).toThrow(/readonly field needs/);
    expect(() => parseFieldSpecs([{ type: 'text', signer: 0, ...at, label: 'a\u0000' }], parties)).toThrow(/control characters/);
    expect(() =>
      parseFieldSpecs(
        Array.from({ length: 201 }, () => ({})),
        parties,
      ),
    ).toThrow(/at most 200 fields/);
  });

  it('runs patterns in linear time and refuses what RE2 cannot (backreferences, lookaround)', () => {
    const t0 = Date.now();
    expect(compilePattern('(a+)+$', 'p').matches(`${'a'.repeat(5000)}!`)).toBe(false);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(() => compilePattern('(a)\\1', 'p')).toThrow(/not a valid regular expression/);
    expect(() => compilePattern('(?=a)', 'p')).toThrow(/not a valid regular expression/);
  });
});

describe('placeFields', () => {
  it('places by rectangle and by every anchor occurrence, signer by record index', () => {
    const [a, b] = place([
      { type: 'text', signer: 0, ...at },
      { type: 'signature', signer: 1, anchor: '{{sig}}', offset_y: -5, width: 60 },
    ]);
    expect(a!.places).toEqual([at]);
    expect(b).toMatchObject({ signer: 1, anchor: '{{sig}}', places: [{ page: 2, x: 100, y: 45, width: 60, height: 10 }] });
  });

  it('refuses a page that does not exist, a field off its page, another signer overlapping; one signer may overlap itself', () => {
    expect(() => place([{ type: 'text', signer: 0, ...at, page: 3 }])).toThrow(
      /page 3 does not exist \(the document has 2 pages\)/,
    );
    expect(() => place([{ type: 'text', signer: 0, ...at, page: 2, x: 260 }])).toThrow(
      /lies outside page 2 \(300 × 300 points\)/,
    );
    expect(() => place([{ type: 'text', signer: 0, anchor: '{{nope}}' }])).toThrow(/is not found/);
    const overlapping = [
      { type: 'text', signer: 0, ...at },
      { type: 'text', signer: 1, ...at, x: 59 },
    ];
    expect(() => place(overlapping)).toThrow(/overlaps fields\[0\]/);
    // Edges that touch do not overlap.
    expect(place([overlapping[0]!, { ...overlapping[1]!, x: 60 }])).toHaveLength(2);
    expect(place([overlapping[0]!, { ...overlapping[1]!, signer: 0 }])).toHaveLength(2);
  });
});

describe('readLayout (pdf.js)', () => {
  it('reads page sizes and finds an anchor inside a run and in a run of its own', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Courier);
    doc.addPage([595, 842]).drawText('Sign: {{sig}}', { x: 72, y: 700, size: 10, font });
    doc.addPage([300, 400]).drawText('{{sig}}', { x: 20, y: 30, size: 12, font });
    const l = await readLayout(await doc.save(), new Set(['{{sig}}', '{{none}}']));
    expect(l.pages).toEqual([
      { width: 595, height: 842 },
      { width: 300, height: 400 },
    ]);
    const [first, second] = l.anchors.get('{{sig}}')!;
    // Courier: 6 pt per character at 10 pt, "Sign: " is 6 characters.
    expect(first!.page).toBe(1);
    expect(first!.x).toBeCloseTo(72 + 36, 1);
    expect(first!.y).toBeCloseTo(700, 1);
    expect(first!.width).toBeCloseTo(42, 1);
    expect(second).toMatchObject({ page: 2, x: 20, y: 30 });
    expect(l.anchors.get('{{none}}')).toEqual([]);
  });

  it('refuses what pdf.js cannot read as a 400', async () => {
    await expect(readLayout(Buffer.from('%PDF-1.7\nnot really'), new Set())).rejects.toThrow(/^document: /);
  });
});

describe('signer values', () => {
  const fields: FormField[] = [
    { id: 's', type: 'signature', signer: 0, required: true, places: [at] },
    { id: 't', type: 'text', signer: 0, required: false, places: [at], max_length: 5 },
    { id: 'c', type: 'checkbox', signer: 1, required: true, places: [at] },
  ];
  const signer = { index: 0, name: 'Ada', email: 'ada@example.com' };
  const now = new Date('2026-01-02T03:04:05Z');
  const png = (w: number, h: number, ink: boolean) => {
    const p = new PNG({ width: w, height: h });
    for (let i = 0; i < p.data.length; i += 4) p.data.writeUInt32BE(ink && (i / 4) % w === 5 ? 0x000000ff : 0, i);
    return PNG.sync.write(p);
  };

  it('re-encodes a drawing from its pixels and bounds it', () => {
    const m = checkMark({ png: png(100, 40, true) }, 'signature');
    expect(m.kind).toBe('drawn');
    const again = m.kind === 'drawn' ? PNG.sync.read(Buffer.from(m.png, 'base64')) : undefined;
    expect([again?.width, again?.height]).toEqual([100, 40]);
    expect(() => checkMark({ png: png(100, 40, false) }, 'signature')).toThrow(/blank/);
    expect(() => checkMark({ png: png(10, 40, true) }, 'signature')).toThrow(/16×8 to 1200×600/);
    expect(() => checkMark({ png: Buffer.alloc(300 * 1024, 1) }, 'signature')).toThrow(/at most 256 KB/);
    expect(() => checkMark({ typed: 'x'.repeat(101) }, 'initials')).toThrow(/at most 100 characters/);
  });

  it('checks a submission against the signer’s own fields and completeness', () => {
    const ok = checkSubmission(fields, signer, { values: { t: 'abc' }, signature: { typed: 'Ada' } }, now);
    expect(ok).toMatchObject({ values: { t: 'abc' }, signature: { kind: 'typed', text: 'Ada' }, submitted_at: now });
    expect(fieldsComplete(fields, { ...signer, fields: ok }, now)).toBe(true);
    expect(fieldsComplete(fields, signer, now)).toBe(false);
    expect(() => checkSubmission(fields, signer, { values: { c: true }, signature: { typed: 'A' } }, now)).toThrow(
      /not one of your fields/,
    );
    expect(() => checkSubmission(fields, signer, { values: { t: 'abcdef' }, signature: { typed: 'A' } }, now)).toThrow(
      /at most 5/,
    );
    expect(() => checkSubmission(fields, signer, { values: [] }, now)).toThrow(/must be an object/);
    expect(() => checkSubmission(fields, { ...signer, index: 1 }, { values: { c: false } }, now)).toThrow(/must be ticked/);
  });
});
