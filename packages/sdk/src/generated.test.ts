import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exportOpenapi } from '../../../services/gateway/src/http/openapi-export.js';
import { generate, OUTPUTS, unnamedOperations } from '../scripts/generate.js';

describe('the generated SDK', () => {
  it('is what the gateway’s OpenAPI document generates today (else: pnpm --filter @signet/sdk gen)', async () => {
    const out = await generate();
    expect(readFileSync(OUTPUTS.document, 'utf8') === out.document, 'openapi.json is stale').toBe(true);
    expect(readFileSync(OUTPUTS.schema, 'utf8') === out.schema, 'src/schema.ts is stale').toBe(true);
    // Generating loads every gateway route and runs openapi-typescript: ~4 s alone, more beside other unit files.
  }, 30_000);

  it('names every operation of the gateway’s document, each once (else it is missing from the SDK)', async () => {
    const doc = (await exportOpenapi()) as { paths: Record<string, Record<string, { operationId?: string }>> };
    expect(unnamedOperations(doc.paths)).toEqual([]);
    const sdk = JSON.parse(readFileSync(OUTPUTS.document, 'utf8')) as typeof doc;
    const ops = (d: typeof doc) =>
      Object.entries(d.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
    expect(ops(sdk).sort()).toEqual(ops(doc).sort());
  }, 30_000);

  it('refuses an operation without an operationId, and one named twice', () => {
    expect(
      unnamedOperations({
        '/a': { get: { operationId: 'a' }, delete: {} },
        '/b': { post: { operationId: 'a' } },
      }),
    ).toEqual(['DELETE /a has no operationId', 'POST /b reuses the operationId a of GET /a']);
  });
});
