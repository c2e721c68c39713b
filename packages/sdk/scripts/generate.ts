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

/**
 * The document and the types generated from it, formatted as the repository formats them, as
 * scripts/gen.ts writes them. Only declared operations (those with an operationId: route.ts in the
 * gateway) are in the SDK; a route file that still writes its OpenAPI by hand joins once declared.
 */
export async function generate(): Promise<{ document: string; schema: string }> {
  const doc = (await exportOpenapi()) as { paths: Record<string, Record<string, { operationId?: string }>> };
  const paths: typeof doc.paths = {};
  for (const [path, item] of Object.entries(doc.paths)) {
    const declared = Object.entries(item).filter(([, op]) => op.operationId);
    if (declared.length) paths[path] = Object.fromEntries(declared);
  }
  const sdkDoc = { ...doc, paths };
  const ast = await openapiTS(sdkDoc as never, { exportType: true });
  const pretty = async (text: string, url: URL) => {
    const filepath = fileURLToPath(url);
    return format(text, { ...(await resolveConfig(filepath)), filepath });
  };
  return {
    document: await pretty(JSON.stringify(sdkDoc), OUTPUTS.document),
    schema: await pretty(HEADER + astToString(ast), OUTPUTS.schema),
  };
}
