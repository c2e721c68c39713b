import { describe, expect, it } from 'vitest';
import { busyKeys } from './fair-share.js';

const f = (id: string, endpoint: string, owner: string) => ({ _id: id, endpoint_id: endpoint, owner_id: owner });

describe('fair delivery shares', () => {
  it('holds back an endpoint at its share, and an owner at theirs, nobody else', () => {
    const flying = [f('1', 'we_a1', 'A'), f('2', 'we_a1', 'A'), f('3', 'we_a2', 'A'), f('4', 'we_b', 'B')];
    expect(busyKeys(flying, 2, 3)).toEqual({ endpoints: ['we_a1'], owners: ['A'] });
    expect(busyKeys(flying, 3, 4)).toEqual({ endpoints: [], owners: [] });
    expect(busyKeys(flying, 1, 1)).toEqual({ endpoints: ['we_a1', 'we_a2', 'we_b'], owners: ['A', 'B'] });
  });

  it('holds back nobody when nothing is in flight', () => {
    expect(busyKeys([], 1, 1)).toEqual({ endpoints: [], owners: [] });
  });
});
