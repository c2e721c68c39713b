import { describe, expect, it } from 'vitest';
import { listFilter } from './transaction.repository.js';

describe('listFilter', () => {
  it('is the owner and the live mode without a page bound or a match', () => {
    expect(listFilter('u1', undefined, {})).toEqual({ owner_id: 'u1', test: { $ne: true }, deleted_at: null });
  });

  it('test mode: only test transactions; live: everything not marked test (records from before test mode too)', () => {
    expect(listFilter('u1', undefined, { test: true })).toEqual({ owner_id: 'u1', test: true, deleted_at: null });
    expect(listFilter('u1', undefined, { test: false })).toEqual({ owner_id: 'u1', test: { $ne: true }, deleted_at: null });
  });

  it('adds the page bound and the status beside the owner', () => {
    expect(listFilter('u1', 42, { status: 'cancelled' })).toEqual({
      owner_id: 'u1',
      test: { $ne: true },
      deleted_at: null,
      _id: { $lt: 42 },
      status: 'cancelled',
    });
  });

  it('matches the query case-insensitively on a reference part start and anywhere in signer names and emails', () => {
    const f = listFilter('u1', undefined, { query: 'TX-0001' });
    expect(f.owner_id).toBe('u1');
    const or = f.$or as Record<string, { $regex: string; $options: string }>[];
    expect(or).toEqual([
      { reference: { $regex: '(^|-)TX-0001', $options: 'i' } },
      { 'signers.name': { $regex: 'TX-0001', $options: 'i' } },
      { 'signers.email': { $regex: 'TX-0001', $options: 'i' } },
    ]);
    const ref = new RegExp(or[0]!.reference!.$regex, or[0]!.reference!.$options);
    expect(ref.test('SIG-TX-00012345')).toBe(true);
    expect(ref.test('SIG-XTX-00012345')).toBe(false);
  });

  it('treats regex characters in the query as text', () => {
    const or = listFilter('u1', undefined, { query: 'a.b*(c)[d]+?^$|\\e{2}' }).$or as Record<string, { $regex: string }>[];
    const name = new RegExp(or[1]!['signers.name']!.$regex, 'i');
    expect(name.test('x A.B*(C)[D]+?^$|\\E{2} y')).toBe(true);
    expect(name.test('aXbbb(c)dd')).toBe(false);
  });
});
