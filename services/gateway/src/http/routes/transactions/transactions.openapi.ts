import { ATTESTATION_TYPES, MAX_QUERY, STATUSES } from './transactions.schemas.js';

/** The OpenAPI paths of /api/transactions*. */
export function transactionsOpenapi(): Record<string, unknown> {
  const security = [{ apiKey: [] }, { bearer: [] }];
  const id = { name: 'id', in: 'path', required: true, schema: { type: 'integer' } };
  const summary = {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      token: { type: 'string' },
      signer_name: { type: 'string' },
      signer_email: { type: 'string' },
      status: {
        type: 'string',
        enum: [...STATUSES],
      },
      verification_mode: { type: 'string', enum: ['biometric', 'liveness'] },
      created_at: { type: 'string', format: 'date-time' },
      verified_at: { type: 'string', format: 'date-time', description: 'Only once verified' },
      reference: { type: 'string' },
    },
  };
  const errors = (...codes: string[]) =>
    Object.fromEntries(
      codes.map((c) => [
        c,
        {
          description:
            {
              '400': 'Bad request',
              '401': 'Unauthenticated',
              '402': 'Quota exhausted',
              '404': 'Not found',
              '409': 'State conflict',
              '413': 'Document too large',
              '429': 'Too soon',
            }[c] ?? c,
        },
      ]),
    );
  return {
    '/api/transactions': {
      post: {
        summary: 'Create a transaction (multipart/form-data); the document is streamed, never buffered',
        security,
        parameters: [{ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 } }],
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                required: ['signer_name', 'signer_email', 'document', 'reference'],
                properties: {
                  signer_name: { type: 'string' },
                  signer_email: { type: 'string', format: 'email' },
                  attestation_type: { type: 'string', enum: [...ATTESTATION_TYPES], default: 'signature' },
                  signer_emails: { type: 'string', description: 'Comma-separated, up to 4' },
                  document: { type: 'string', format: 'binary', description: 'PDF beginning with %PDF-, at most 200 MB' },
                  reference: { type: 'string', format: 'binary', description: 'JPEG or PNG face photo, at most 10 MB' },
                },
              },
            },
          },
        },
        responses: {
          '201': {
            description: 'Created',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    id: { type: 'integer' },
                    reference: { type: 'string' },
                    token: { type: 'string' },
                    sign_url: { type: 'string' },
                    status: { type: 'string' },
                  },
                },
              },
            },
          },
          ...errors('400', '401', '402', '409', '413'),
        },
      },
      get: {
        summary:
          "The caller's transactions, most recent first, optionally filtered by status and a search; X-Next-Cursor/Link give the next page (the Link keeps the filter)",
        security,
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 } },
          { name: 'cursor', in: 'query', schema: { type: 'string' } },
          {
            name: 'status',
            in: 'query',
            description: 'Only transactions in this status (empty: any)',
            schema: { type: 'string', enum: [...STATUSES] },
          },
          {
            name: 'q',
            in: 'query',
            description:
              'Search, case-insensitive, trimmed (empty: none): the start of the reference or of one of its dash-separated parts (SIG-TX-00001234, 00001234), or part of a signer name or email',
            schema: { type: 'string', maxLength: MAX_QUERY },
          },
        ],
        responses: {
          '200': { description: 'Summaries', content: { 'application/json': { schema: { type: 'array', items: summary } } } },
          ...errors('400', '401'),
        },
      },
    },
    '/api/transactions/export.csv': {
      get: {
        summary: "All of the caller's transactions as CSV (reference,signer,email,status,created,verified)",
        security,
        responses: { '200': { description: 'CSV', content: { 'text/csv': { schema: { type: 'string' } } } }, ...errors('401') },
      },
    },
    '/api/transactions/{id}': {
      get: {
        summary: 'One transaction with its signers and full event log',
        security,
        parameters: [id],
        responses: { '200': { description: 'Detail' }, ...errors('401', '404') },
      },
    },
    '/api/transactions/{id}/resend': {
      post: {
        summary: 'Re-send the signing link (non-terminal only, once a minute)',
        security,
        parameters: [id],
        responses: {
          '200': { description: 'Updated summary', content: { 'application/json': { schema: summary } } },
          ...errors('401', '404', '409', '429'),
        },
      },
    },
    '/api/transactions/{id}/cancel': {
      post: {
        summary: 'Cancel a pending transaction; its signing links stop working',
        security,
        parameters: [id],
        responses: {
          '200': { description: 'Updated summary', content: { 'application/json': { schema: summary } } },
          ...errors('401', '404', '409'),
        },
      },
    },
  };
}
