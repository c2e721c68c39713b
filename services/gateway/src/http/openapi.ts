import type { RouteModule } from './context.js';

/** The gateway's OpenAPI 3.1 document, merged from every route module's paths. */
export function openapiDocument(modules: RouteModule[], baseUrl: string) {
  const paths: Record<string, unknown> = {};
  for (const m of modules) Object.assign(paths, m.openapi ?? {});
  const error = { type: 'object', required: ['detail'], properties: { detail: { type: 'string' } } };
  const errorResponse = (description: string) => ({
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  });
  return {
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
      schemas: {
        Error: error,
        Verification: {
          type: 'object',
          properties: {
            valid: { type: 'boolean' },
            reference: { type: 'string' },
            signer_name: { type: 'string' },
            issuer_name: { type: 'string' },
            verified_at: { type: 'string', format: 'date-time' },
            document_sha256_prefix: { type: 'string' },
            verification_mode: { type: 'string' },
            ledger_seal: { type: 'string' },
          },
        },
      },
      responses: {
        BadRequest: errorResponse('Malformed request or a required field missing'),
        Unauthorized: errorResponse('Missing or invalid authentication'),
        PaymentRequired: errorResponse('Monthly quota and credits exhausted'),
        Forbidden: errorResponse('Not allowed'),
        NotFound: errorResponse('Not found (also for another owner’s resource)'),
        Conflict: errorResponse('State conflict'),
        TooManyRequests: { ...errorResponse('Rate limited'), headers: { 'Retry-After': { schema: { type: 'integer' } } } },
      },
    },
  };
}
