import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readmeWithTable } from './config-docs.js';

describe('README configuration table', () => {
  it('lists every variable of every service schema (run `pnpm config-docs` when this fails)', () => {
    const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');
    expect(readme).toBe(readmeWithTable(readme));
  });
});
