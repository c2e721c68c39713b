import { describe, expect, it } from 'vitest';
import { fieldValuesBySigner } from './field-values.js';

describe('fieldValuesBySigner', () => {
  it('lists each signer’s values by label or id: text quoted, ticks, drawings', () => {
    const places = [{ page: 1, x: 1, y: 1, width: 10, height: 10 }];
    const json = JSON.stringify([
      { id: 'sig', signer: 0, places, png: 'iVBOR' },
      { id: 'co', label: 'Company', signer: 0, places, text: 'Engines "A"' },
      { id: 'ok', signer: 1, places, checked: true },
      { id: 'no', signer: 1, places, checked: false },
      { id: 'stray', signer: 7, places, text: 'nobody' },
    ]);
    expect(fieldValuesBySigner(json, 2)).toEqual(['sig: drawn; Company: "Engines \\"A\\""', 'ok: ticked; no: not ticked']);
  });
  it('gives none for no fields, a list without signers, or one that does not parse', () => {
    expect(fieldValuesBySigner(undefined, 2)).toEqual(['', '']);
    expect(fieldValuesBySigner(JSON.stringify([{ places: [], text: 'x' }]), 1)).toEqual(['']);
    expect(fieldValuesBySigner('{', 1)).toEqual(['']);
  });
});
