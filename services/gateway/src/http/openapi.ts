import { createDocument, type ZodOpenApiPathsObject, type ZodOpenApiResponseObject } from 'zod-openapi';
import type { RouteModule } from './context.js';
import { errorResponse, errorSchema, operationOf, responseObject, type AnyRoute } from './route.js';
import { webhookOperation } from './webhook.operation.js';

/**
 * Shared error responses, by name, for the route files that still write their OpenAPI paths by hand
 * (`$ref: '#/components/responses/NotFound'`): generated from the same `{"detail"}` schema.
 */
const SHARED_RESPONSES: Record<string, number> = {
  BadRequest: 400,
  Unauthorized: 401,
  PaymentRequired: 402,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  TooManyRequests: 429,
};

/**
 * The gateway's OpenAPI 3.1 document, generated (zod-openapi) from every module's declared
 * operations (route.ts). A module that still carries hand-written paths (route files of other work
 * in flight) adds the operations not declared; the webhook's is replaced by its declaration.
 */
export function openapiDocument(modules: RouteModule[], baseUrl: string): Record<string, unknown> {
  const paths: ZodOpenApiPathsObject = {};
  const add = (r: Omit<AnyRoute, 'handle'>) => {
    const item = (paths[r.path] ??= {});
    item[r.method as 'get'] = operationOf(r);
  };
  for (const m of modules) for (const r of m.routes ?? []) add(r);
  const handWritten: Record<string, Record<string, unknown>> = {};
  for (const m of modules)
    for (const [path, item] of Object.entries(m.openapi ?? {})) {
      if (/^\/api\/webhooks\/[^/]+$/.test(path)) add(webhookOperation(path));
      else handWritten[path] = { ...handWritten[path], ...(item as Record<string, unknown>) };
    }
  const responses: Record<string, ZodOpenApiResponseObject> = {};
  for (const [name, status] of Object.entries(SHARED_RESPONSES)) responses[name] = responseObject(errorResponse(status));
  const doc = createDocument({
    openapi: '3.1.0',
    info: { title: 'Signet API', version: '1', description: 'Remote signing and attestation service.' },
    servers: [{ url: baseUrl }],
    security: [{ apiKey: [] }, { bearer: [] }],
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            'A dashboard session. It sees live data; a request with the header `Signet-Mode: test` sees and makes test ' +
            'data as a test-mode API key does (an API key keeps its own mode: the other one named is a 400).',
        },
      },
      schemas: { Error: errorSchema },
      responses,
    },
  });
  const out = (doc.paths ?? {}) as Record<string, Record<string, unknown>>;
  for (const [path, item] of Object.entries(handWritten))
    for (const [method, op] of Object.entries(item)) (out[path] ??= {})[method] ??= op;
  doc.paths = out as never;
  return doc as unknown as Record<string, unknown>;
}
