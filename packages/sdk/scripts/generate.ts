import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';
import { exportOpenapi } from '../../../services/gateway/src/http/openapi-export.js';

const HEADER =
  '// Generated from the gateway OpenAPI document by `pnpm --filter @signet/sdk gen` (openapi-typescript). Do not edit.\n\n';
export const OUTPUTS = {
  document: new URL('../openapi.json', import.meta.url),
  schema: new URL('../src/schema.ts', import.meta.url),
};

type Paths = Record<string, Record<string, { operationId?: string }>>;

/**
 * Operations of the document that the SDK could not name: no operationId, or one used twice. The SDK
 * names its operations by operationId, so such an operation would be missing from it (or one would
 * hide another): generating refuses them.
 */
export function unnamedOperations(paths: Paths): string[] {
  const seen = new Map<string, string>();
  const bad: string[] = [];
  for (const [path, item] of Object.entries(paths))
    for (const [method, op] of Object.entries(item)) {
      const where = `${method.toUpperCase()} ${path}`;
      if (!op.operationId) bad.push(`${where} has no operationId`);
      else if (seen.has(op.operationId))
        bad.push(`${where} reuses the operationId ${op.operationId} of ${seen.get(op.operationId)}`);
      else seen.set(op.operationId, where);
    }
  return bad;
}

/**
 * The document and the types generated from it, formatted as the repository formats them, as
 * scripts/gen.ts writes them. Every operation is in the SDK, by its operationId; an operation
 * without one (or with a taken one) stops generation.
 */
export async function generate(): Promise<{ document: string; schema: string }> {
  const doc = (await exportOpenapi()) as { paths: Paths };
  const bad = unnamedOperations(doc.paths);
  if (bad.length) throw new Error(`operations the SDK cannot name:\n${bad.join('\n')}`);
  const ast = await openapiTS(doc as never, { exportType: true });
  const pretty = async (text: string, url: URL) => {
    const filepath = fileURLToPath(url);
    return format(text, { ...(await resolveConfig(filepath)), filepath });
  };
  return {
    document: await pretty(JSON.stringify(doc), OUTPUTS.document),
    schema: await pretty(HEADER + astToString(ast), OUTPUTS.schema),
  };
}
