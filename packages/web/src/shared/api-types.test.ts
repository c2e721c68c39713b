/**
 * The pages keep no second copy of the API's types (issue 16): every object type the pages' API
 * modules declare is derived from the SDK, and the path templates fill as the API expects.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fill } from './api-types.js';

const SRC = join(import.meta.dirname, '..');
const apiModules = ['dashboard/api.ts', 'sign/api.ts'];

describe('the pages’ API types', () => {
  it('declares no response or request type by hand in the API modules', () => {
    for (const file of apiModules) {
      const text = readFileSync(join(SRC, file), 'utf8');
      // An exported type written as an object literal (`export type X = { … }`) is a hand-made copy.
      expect(text, file).not.toMatch(/export (type \w+\s*=\s*\{|interface )/);
      expect(text, file).toMatch(/from '\.\.\/shared\/api-types\.js'/);
    }
  });

  it('has no view that declares the shape of an API answer either', () => {
    const views = readdirSync(join(SRC, 'dashboard/views'), { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('.ts'),
    );
    for (const f of views) {
      const text = readFileSync(join(SRC, 'dashboard/views', f), 'utf8');
      // The fields that only the API's answers carry.
      expect(text, f).not.toMatch(/\b(attempts_left|signer_email|event_types)\s*:\s*(string|number|boolean)/);
    }
  });

  it('fills a path template with encoded parameters and refuses a missing one', () => {
    expect(fill('/api/transactions/{id}', { id: 42 })).toBe('/api/transactions/42');
    expect(fill('/api/sign/{token}/live/{nonce}/chunks/{seq}', { token: 'a/b', nonce: 'n n', seq: 3 })).toBe(
      '/api/sign/a%2Fb/live/n%20n/chunks/3',
    );
    expect(() => fill('/api/webhook-endpoints/{id}', {})).toThrow('missing path parameter id');
  });
});
