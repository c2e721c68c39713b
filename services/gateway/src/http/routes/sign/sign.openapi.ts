/** The OpenAPI paths of /api/sign/{token}/*. */
export function signOpenapi() {
  const token = { name: 'token', in: 'path', required: true, schema: { type: 'string' } };
  const errors = {
    '400': { $ref: '#/components/responses/BadRequest' },
    '404': { $ref: '#/components/responses/NotFound' },
    '409': { $ref: '#/components/responses/Conflict' },
    '429': { $ref: '#/components/responses/TooManyRequests' },
  };
  const op = (summary: string, extra: Record<string, unknown> = {}) => ({
    tags: ['signing ceremony'],
    summary,
    security: [],
    parameters: [token],
    responses: { '200': { description: 'OK' }, ...errors },
    ...extra,
  });
  return {
    '/api/sign/{token}/summary': { get: op('Get the signing session state (step, attempts left, outcome)') },
    '/api/sign/{token}/document': {
      get: op('The PDF being signed, for the signer to read', {
        responses: {
          '200': {
            description: 'The document',
            content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
          },
          ...errors,
        },
      }),
    },
    '/api/sign/{token}/consent': {
      post: op('Record signer consent (a second consent is 409)', {
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['consent_text_version'],
                properties: { consent_text_version: { type: 'string' } },
              },
            },
          },
        },
        responses: { '201': { description: 'Consent recorded; the session summary' }, ...errors },
      }),
    },
    '/api/sign/{token}/challenge': {
      get: op('Issue 4 random words and 3 liveness actions with a nonce valid 2 minutes; replaces any earlier challenge'),
    },
    '/api/sign/{token}/capture': {
      post: op('Submit the signing video (WebM/MP4, ≤50 MB, ≤30 s) and final frame (JPEG/PNG) with the challenge nonce', {
        requestBody: {
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                required: ['nonce', 'video', 'frame'],
                properties: {
                  nonce: { type: 'string', description: 'must come first' },
                  video: { type: 'string', format: 'binary' },
                  frame: { type: 'string', format: 'binary' },
                },
              },
            },
          },
        },
        responses: { '201': { description: 'Capture accepted' }, '413': { description: 'Too large' }, ...errors },
      }),
    },
    '/api/sign/{token}/live': {
      post: op(
        'Start a live recording: a new challenge of which only segment 0 (its prompt and screen colour) is revealed; each chunk reveals the next',
        { responses: { '201': { description: 'Live challenge started' }, ...errors } },
      ),
    },
    '/api/sign/{token}/live/{nonce}/chunks/{seq}': {
      post: op('Append chunk seq (0, 1, ...) of the live recording (raw bytes, ≤2 MB); the answer reveals the next segment', {
        parameters: [
          token,
          { name: 'nonce', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'seq', in: 'path', required: true, schema: { type: 'integer', minimum: 0 } },
          {
            name: 'shown',
            in: 'query',
            required: false,
            description: 'segments shown since the last chunk, as segment:ms pairs (recording time), e.g. 3:3120',
            schema: { type: 'string' },
          },
        ],
        requestBody: { content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
        responses: { '200': { description: 'Chunk stored; the next segment' }, '413': { description: 'Too large' }, ...errors },
      }),
    },
    '/api/sign/{token}/live/{nonce}/finish': {
      post: op('Finish the live recording with the final frame (JPEG/PNG body); the capture is checked and accepted', {
        parameters: [token, { name: 'nonce', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: { content: { 'image/jpeg': { schema: { type: 'string', format: 'binary' } } } },
        responses: { '201': { description: 'Capture accepted' }, '413': { description: 'Too large' }, ...errors },
      }),
    },
    '/api/sign/{token}/webauthn/options': {
      post: op('WebAuthn registration or authentication options bound to the document and nonce'),
    },
    '/api/sign/{token}/webauthn/verify': { post: op('Verify the WebAuthn registration or assertion ({"response": ...})') },
    '/api/sign/{token}/forensic': {
      post: op('Log a batch of client forensic events (≤64 KB, ≤200 batches a session)', {
        responses: { '202': { description: 'Stored' }, '413': { description: 'Too large' }, ...errors },
      }),
    },
  };
}
