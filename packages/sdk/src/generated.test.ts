import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generate, OUTPUTS } from '../scripts/generate.js';

describe('the generated SDK', () => {
  it('is what the gateway’s OpenAPI document generates today (else: pnpm --filter @signet/sdk gen)', async () => {
    const out = await generate();
    expect(readFileSync(OUTPUTS.document, 'utf8') === out.document, 'openapi.json is stale').toBe(true);
    expect(readFileSync(OUTPUTS.schema, 'utf8') === out.schema, 'src/schema.ts is stale').toBe(true);
    // Generating loads every gateway route and runs openapi-typescript: ~4 s alone, more beside other unit files.
  }, 30_000);
});
