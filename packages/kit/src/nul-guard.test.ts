import { describe, expect, it } from 'vitest';
import { nulPath, nulRefusal } from './nul-guard.js';

describe('the NUL guard of gRPC requests', () => {
  it('finds U+0000 in any string of a message: nested, in lists, in map keys', () => {
    expect(nulPath({ name: 'Ada', signers: [{ name: 'B\u0000b' }] })).toBe('signers.0.name');
    expect(nulPath({ data: { 'k\u0000': 'v' } })).toBe('data.key');
    expect(nulPath('\u0000')).toBe('request');
  });
  it('lets through text without it, tabs and newlines, other control characters (the gateway judges those), and bytes', () => {
    expect(nulPath({ name: 'Ada\tLovelace\n', pdf: Buffer.from([0, 0, 0]), raw: new Uint8Array([0]) })).toBeUndefined();
    expect(nulPath({ n: 1, b: true, x: null, u: undefined })).toBeUndefined();
  });
  it('answers INVALID_ARGUMENT naming the field', () => {
    const e = nulRefusal({ reason: 'no\u0000' });
    expect(e).toMatchObject({ kind: 'invalid_argument', reason: 'INVALID_TEXT' });
    expect(e?.message).toBe('reason: must not contain the NUL character (U+0000)');
    expect(nulRefusal({ reason: 'fine' })).toBeUndefined();
  });
});
