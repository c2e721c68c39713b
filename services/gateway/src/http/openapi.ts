import { createDocument, type ZodOpenApiPathsObject } from 'zod-openapi';
import type { RouteModule } from './context.js';
import { errorSchema, operationOf } from './route.js';

/** Shared by the hand-written paths of modules not yet declared with defineRoute. */
const legacyComponents = () => {
  const errorResponse = (description: string) => ({
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  });
  return {
    responses: {
      BadRequest: errorResponse('Malformed request or a required field missing'),
      Unauthorized: errorResponse('Missing or invalid authentication'),
      PaymentRequired: errorResponse('Monthly quota and credits exhausted'),
      Forbidden: errorResponse('Not allowed'),
      NotFound: errorResponse('Not found (also for another owner’s resource)'),
      Conflict: errorResponse('State conflict'),
      TooManyRequests: { ...errorResponse('Rate limited'), headers: { 'Retry-After': { schema: { type: 'integer' as const } } } },
    },
  };
};

/**
 * The gateway's OpenAPI 3.1 document: generated (zod-openapi) from every module's declared operations,
 * plus the hand-written paths of modules not yet declared that way.
 */
export function openapiDocument(modules: RouteModule[], baseUrl: string): Record<string, unknown> {
  const paths: ZodOpenApiPathsObject = {};
  for (const m of modules)
    for (const r of m.routes ?? []) {
      const item = (paths[r.path] ??= {});
      item[r.method as 'get'] = operationOf(r);
    }
  const legacy = legacyComponents();
  const doc = createDocument({
    openapi: '3.1.0',
    info: { title: 'Signet API', version: '1', description: 'Remote signing and attestation service.' },
    servers: [{ url: baseUrl }],
    security: [{ apiKey: [] }, { bearer: [] }],
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      },
      schemas: { Error: errorSchema },
      responses: legacy.responses,
    },
  });
  const out = doc.paths ?? {};
  for (const m of modules)
    for (const [path, item] of Object.entries(m.openapi ?? {})) {
      if (!out[path]) out[path] = item as never;
      else Object.assign(out[path], item);
    }
  doc.paths = out;
  return doc as unknown as Record<string, unknown>;
}
