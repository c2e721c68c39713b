import { describe, expect, it } from 'vitest';
import { stampedFieldsJson } from './field-stamps.js';
import type { FormField } from './form-fields.js';
import { newSigner, type Signer } from './transaction.js';

const at = { page: 1, x: 1, y: 2, width: 30, height: 10 };
const field = (id: string, type: FormField['type'], signer: number, over: Partial<FormField> = {}): FormField => ({
  id,
  type,
  signer,
  required: false,
  places: [{ ...at, x: at.x + signer * 40 }],
  ...over,
});

describe('stampedFieldsJson', () => {
  const ada: Signer = {
    ...newSigner(0, 'Ada', 'ada@example.com', 't0', 3, { mode: 'liveness' }),
    verified_at: new Date('2026-03-04T23:59:00Z'),
    fields: {
      values: { co: 'Engines', ok: true },
      signature: { kind: 'drawn', png: 'iVBOR', sha256: 'f'.repeat(64), width: 20, height: 10 },
      submitted_at: new Date('2026-03-01T00:00:00Z'),
    },
  };
  const bob = newSigner(1, 'Bob', 'bob@example.com', 't1', 3, { mode: 'liveness' });

  it('gives each value at its places: submitted, prefilled, the service’s own; nothing for what is empty', () => {
    const fields = [
      field('sig', 'signature', 0),
      field('co', 'text', 0),
      field('ok', 'checkbox', 0),
      field('date', 'date_signed', 0),
      field('name', 'full_name', 1),
      field('plan', 'dropdown', 1, { options: ['A', 'B'], value: 'B' }),
      field('note', 'text', 1),
      field('ini', 'initials', 1),
      field('tick', 'checkbox', 1),
    ];
    expect(JSON.parse(stampedFieldsJson(fields, [ada, bob]))).toEqual([
      { id: 'sig', signer: 0, places: fields[0]!.places, png: 'iVBOR' },
      { id: 'co', signer: 0, places: fields[1]!.places, text: 'Engines' },
      { id: 'ok', signer: 0, places: fields[2]!.places, checked: true },
      { id: 'date', signer: 0, places: fields[3]!.places, text: '2026-03-04' },
      { id: 'name', signer: 1, places: fields[4]!.places, text: 'Bob' },
      { id: 'plan', signer: 1, places: fields[5]!.places, text: 'B' },
      { id: 'tick', signer: 1, places: fields[8]!.places, checked: false },
    ]);
    expect(stampedFieldsJson(undefined, [ada])).toBe('');
  });

  it('sends drawings as text when the event would grow past the broker’s limit', () => {
    const big = {
      ...ada,
      fields: {
        ...ada.fields!,
        signature: { kind: 'drawn' as const, png: 'A'.repeat(800_000), sha256: 'e'.repeat(64), width: 1, height: 1 },
      },
    };
    const out = JSON.parse(stampedFieldsJson([field('sig', 'signature', 0)], [big]));
    expect(out).toEqual([{ id: 'sig', signer: 0, places: [at], text: `(signature drawn, sha256 ${'e'.repeat(16)})` }]);
  });
});
