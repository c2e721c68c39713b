import type { Request, Response } from 'express';
import { Router } from 'express';
import busboy from 'busboy';
import { z } from 'zod';
import { Metadata, type ServiceError } from '@grpc/grpc-js';
import { injectContext, RpcError } from '@signet/kit';
import { transactionV1 } from '@signet/proto';
import { callerOf, requireCaller } from '../auth.js';
import type { Caller, GatewayContext, RouteModule } from '../context.js';
import { badRequest, HttpError } from '../errors.js';

const MAX_DOCUMENT_BYTES = 200 * 1024 * 1024;
const MAX_REFERENCE_BYTES = 10 * 1024 * 1024;
/** Uploads are long calls: the deadline covers a 200 MB document from a slow client. */
const UPLOAD_DEADLINE_MS = 15 * 60 * 1000;
const EXPORT_DEADLINE_MS = 10 * 60 * 1000;
/** File bytes are forwarded in messages of about this size (fewer, larger messages cost less per byte). */
const FORWARD_CHUNK = 256 * 1024;
const ATTESTATION_TYPES = ['signature', 'approval', 'review', 'consent'] as const;
const STATUSES = ['created', 'consent_accepted', 'capture_accepted', 'ledger_issued', 'failed', 'cancelled'] as const;
const MAX_QUERY = 100;
const TEXT_FIELDS = new Set(['signer_name', 'signer_email', 'attestation_type', 'signer_emails']);

const email = (field: string) => z.email({ error: `${field}: is not an email address` }).max(254, `${field}: is too long`);
const fieldsSchema = z.object({
  signer_name: z
    .string({ error: 'signer_name: is required' })
    .trim()
    .min(1, 'signer_name: is required')
    .max(200, 'signer_name: must be at most 200 characters'),
  signer_email: z
    .string({ error: 'signer_email: is required' })
    .trim()
    .min(1, 'signer_email: is required')
    .pipe(email('signer_email')),
  attestation_type: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || 'signature')
    .pipe(z.enum(ATTESTATION_TYPES, { error: `attestation_type: must be one of ${ATTESTATION_TYPES.join(', ')}` })),
  signer_emails: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(email('signer_emails')).max(4, 'signer_emails: at most 4 additional signers')),
});
const idempotencyKey = z.string().regex(/^[\x21-\x7e]{1,255}$/, 'Idempotency-Key must be 1-255 visible ASCII characters');
const listQuery = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be an integer')
    .min(1, 'limit must be at least 1')
    .max(200, 'limit must be at most 200')
    .optional(),
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'cursor is not valid')
    .optional(),
  // An empty status or q (an untouched form field) means no filter.
  status: z
    .string({ error: `status: must be one of ${STATUSES.join(', ')}` })
    .optional()
    .transform((v) => v || undefined)
    .pipe(z.enum(STATUSES, { error: `status: must be one of ${STATUSES.join(', ')}` }).optional()),
  q: z
    .string({ error: 'q: must be one search text' })
    .trim()
    .max(MAX_QUERY, `q: must be at most ${MAX_QUERY} characters`)
    .optional()
    .transform((v) => v || undefined),
});

function firstIssue(err: z.ZodError): string {
  return err.issues[0]?.message ?? 'invalid request';
}

/** The summary as the spec names its fields; verified_at only once verified. */
function summaryJson(s: transactionV1.TransactionSummary) {
  return {
    id: Number(s.id),
    token: s.token,
    signer_name: s.signerName,
    signer_email: s.signerEmail,
    status: s.status,
    verification_mode: s.verificationMode,
    created_at: s.createdAt,
    ...(s.verifiedAt ? { verified_at: s.verifiedAt } : {}),
    reference: s.reference,
  };
}

/**
 * A message of the CreateTransaction stream as the gateway writes it: file bytes as the list of
 * chunks busboy delivered (encoded straight into the message, one copy), anything else as itself.
 */
type OutgoingChunk = transactionV1.CreateTransactionChunk | { bytes: 'document' | 'reference'; chunks: Buffer[]; length: number };

/** Field tags of CreateTransactionChunk (transaction.proto): document = 2, reference = 3, both length-delimited. */
const BYTES_TAG = { document: (2 << 3) | 2, reference: (3 << 3) | 2 } as const;

/**
 * Serializes a CreateTransactionChunk. File bytes are written once into the wire buffer (tag, varint
 * length, bytes) instead of concatenated, copied by the protobuf writer and copied again by Buffer.from:
 * the same bytes as the generated encoder, a third of the copying.
 */
export function serializeChunk(msg: OutgoingChunk): Buffer {
  if (!('bytes' in msg)) return Buffer.from(transactionV1.CreateTransactionChunk.encode(msg).finish());
  let header = 1;
  for (let n = msg.length; n > 0x7f; n >>>= 7) header++;
  const out = Buffer.allocUnsafe(1 + header + msg.length);
  out[0] = BYTES_TAG[msg.bytes];
  let off = 1;
  let n = msg.length;
  while (n > 0x7f) {
    out[off++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  out[off++] = n;
  for (const c of msg.chunks) off += c.copy(out, off);
  return out;
}
const CREATE_PATH = transactionV1.TransactionServiceService.createTransaction.path;

function grpcMetadata(): Metadata {
  const md = new Metadata();
  for (const [k, v] of Object.entries(injectContext())) md.set(k, v);
  return md;
}

/** A path id: digits only; anything else is a transaction that does not exist (404, never 400). */
function pathId(raw: string | string[] | undefined): number {
  if (typeof raw !== 'string' || !/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw new HttpError(404, 'no such transaction');
  return Number(raw);
}

/** One CSV cell: formula-looking text is neutralised with a leading apostrophe, then RFC 4180 quoting. */
export function csvCell(value: string): string {
  let v = value;
  if (/^[=+\-@\t\r]/.test(v)) v = `'${v}`;
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}
const csvRow = (cells: string[]) => `${cells.map(csvCell).join(',')}\r\n`;

/**
 * Streams one multipart creation request to the transaction service: `begin`, the document and
 * reference bytes as they arrive (backpressure both ways), then the checked text fields. Any
 * failure cancels the call (the service removes what it stored) and stops reading the request.
 */
function streamCreation(ctx: GatewayContext, req: Request, res: Response, caller: Caller, key: string | undefined) {
  return new Promise<transactionV1.CreateTransactionResult>((resolve, reject) => {
    let settled = false;
    let bodyDone = false;
    let result: transactionV1.CreateTransactionResult | undefined;
    const fields: Record<string, string> = {};
    const seen = new Set<string>();
    let documentName = '';

    const call = ctx.transaction.raw.makeClientStreamRequest<OutgoingChunk, transactionV1.CreateTransactionResult>(
      CREATE_PATH,
      serializeChunk,
      transactionV1.TransactionServiceService.createTransaction.responseDeserialize,
      grpcMetadata(),
      { deadline: new Date(Date.now() + UPLOAD_DEADLINE_MS) },
      (err: ServiceError | null, r?: transactionV1.CreateTransactionResult) => {
        if (err) return fail(RpcError.from(err));
        result = r;
        if (bodyDone) finish();
      },
    );
    let bb: busboy.Busboy;
    const finish = () => {
      if (settled || !result) return;
      settled = true;
      resolve(result);
    };
    const fail = (e: unknown) => {
      if (settled) return;
      settled = true;
      call.cancel();
      if (bb) {
        req.unpipe(bb);
        bb.removeAllListeners('file');
      }
      // The client may still be sending: answer now and close the connection rather than read the rest.
      if (!bodyDone) res.setHeader('Connection', 'close');
      reject(e);
    };
    const write = (msg: OutgoingChunk, resume?: () => void) => {
      if (settled) return;
      if (!call.write(msg) && resume) call.once('drain', resume);
      else resume?.();
    };

    write({ part: { $case: 'begin', value: { ownerId: caller.userId, orgName: caller.orgName, idempotencyKey: key ?? '' } } });

    try {
      bb = busboy({
        headers: req.headers,
        // busboy reports the limit on reaching it, so one byte more: exactly 200 MB is accepted.
        limits: { fileSize: MAX_DOCUMENT_BYTES + 1, files: 2, fields: 8, fieldSize: 16 * 1024, parts: 10, headerPairs: 50 },
      });
    } catch {
      return fail(badRequest('the body must be multipart/form-data with a boundary'));
    }

    bb.on('field', (name, value, info) => {
      if (settled) return;
      if (!TEXT_FIELDS.has(name)) return fail(badRequest(`${name}: is not a known field`));
      if (seen.has(name)) return fail(badRequest(`${name}: given more than once`));
      if (info.valueTruncated) return fail(badRequest(`${name}: is too long`));
      seen.add(name);
      fields[name] = value;
    });

    bb.on('file', (name, file, info) => {
      if (settled) return void file.resume();
      if (name !== 'document' && name !== 'reference') return fail(badRequest(`${name}: is not a known file field`));
      if (seen.has(name)) return fail(badRequest(`${name}: given more than once`));
      seen.add(name);
      if (name === 'document') documentName = info.filename ?? '';
      let head = Buffer.alloc(0);
      let checked = false;
      let size = 0;
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const flush = (resume?: () => void) => {
        if (!pendingBytes) return resume?.();
        const msg = { bytes: name, chunks: pending, length: pendingBytes } as const;
        pending = [];
        pendingBytes = 0;
        write(msg, resume);
      };
      file.on('limit', () => fail(new HttpError(413, 'document: must be at most 200 MB')));
      file.on('data', (chunk: Buffer) => {
        if (settled) return;
        size += chunk.length;
        if (!checked) {
          head = Buffer.concat([head, chunk]).subarray(0, 8);
          const verdict = name === 'document' ? pdfHead(head) : imageHead(head);
          if (verdict === false) {
            return fail(
              badRequest(
                name === 'document'
                  ? 'document: is not a PDF (it must begin with %PDF-)'
                  : 'reference: must be a JPEG or PNG image',
              ),
            );
          }
          checked = verdict === true;
        }
        if (name === 'reference' && size > MAX_REFERENCE_BYTES) return fail(badRequest('reference: must be at most 10 MB'));
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes >= FORWARD_CHUNK) {
          file.pause();
          flush(() => file.resume());
        }
      });
      file.on('end', () => {
        if (settled || file.truncated) return;
        if (size === 0) return fail(badRequest(`${name}: is empty`));
        if (!checked) {
          return fail(
            badRequest(
              name === 'document'
                ? 'document: is not a PDF (it must begin with %PDF-)'
                : 'reference: must be a JPEG or PNG image',
            ),
          );
        }
        flush();
      });
    });

    bb.on('partsLimit', () => fail(badRequest('too many parts in the body')));
    bb.on('filesLimit', () => fail(badRequest('only the document and reference files are accepted')));
    bb.on('fieldsLimit', () => fail(badRequest('too many fields in the body')));
    bb.on('error', () => fail(badRequest('the multipart body is malformed')));
    bb.on('close', () => {
      bodyDone = true;
      if (settled) return;
      const parsed = fieldsSchema.safeParse(fields);
      if (!parsed.success) return fail(badRequest(firstIssue(parsed.error)));
      if (!seen.has('document')) return fail(badRequest('document: is required'));
      if (!seen.has('reference')) return fail(badRequest('reference: is required'));
      const f = parsed.data;
      write({
        part: {
          $case: 'fields',
          value: {
            signerName: f.signer_name,
            signerEmail: f.signer_email,
            signerEmails: f.signer_emails,
            attestationType: f.attestation_type,
            documentName,
          },
        },
      });
      call.end();
      finish();
    });
    req.on('close', () => {
      // The client went away before the body was complete: stop, and let the service clean up.
      if (!req.complete && !settled) fail(new HttpError(400, 'the request was aborted'));
    });
    req.pipe(bb);
  });
}

const PDF = Buffer.from('%PDF-');
function pdfHead(head: Buffer): boolean | undefined {
  const n = Math.min(head.length, PDF.length);
  if (!head.subarray(0, n).equals(PDF.subarray(0, n))) return false;
  return n === PDF.length ? true : undefined;
}
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
function imageHead(head: Buffer): boolean | undefined {
  let maybe = false;
  for (const magic of [JPEG, PNG]) {
    const n = Math.min(head.length, magic.length);
    if (head.subarray(0, n).equals(magic.subarray(0, n))) {
      if (n === magic.length) return true;
      maybe = true;
    }
  }
  return maybe ? undefined : false;
}

/** /api/transactions*: create (streamed multipart), list, detail, resend, cancel, CSV export. */
export function transactionsRoutes(ctx: GatewayContext): RouteModule {
  const router = Router();
  const auth = requireCaller(ctx);

  router.post('/api/transactions', auth, async (req, res) => {
    const caller = callerOf(res);
    if (!req.is('multipart/form-data')) throw badRequest('the body must be multipart/form-data');
    const rawKey = req.get('idempotency-key');
    let key: string | undefined;
    if (rawKey !== undefined) {
      const k = idempotencyKey.safeParse(rawKey);
      if (!k.success) throw badRequest(firstIssue(k.error));
      key = k.data;
    }
    const r = await streamCreation(ctx, req, res, caller, key);
    if (r.replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.status(201).json({ id: Number(r.id), reference: r.reference, token: r.token, sign_url: r.signUrl, status: r.status });
  });

  router.get('/api/transactions', auth, async (req, res) => {
    const caller = callerOf(res);
    const q = listQuery.safeParse(req.query);
    if (!q.success) throw badRequest(firstIssue(q.error));
    const { limit, cursor, status, q: text } = q.data;
    const page = await ctx.transaction.listTransactions({
      ownerId: caller.userId,
      limit: limit ?? 0,
      cursor: cursor ?? '',
      status: status ?? '',
      query: text ?? '',
    });
    if (page.nextCursor) {
      res.setHeader('X-Next-Cursor', page.nextCursor);
      // The next page keeps the filter: only the cursor changes.
      const next = new URLSearchParams({
        ...(limit ? { limit: String(limit) } : {}),
        ...(status ? { status } : {}),
        ...(text ? { q: text } : {}),
        cursor: page.nextCursor,
      });
      res.setHeader('Link', `</api/transactions?${next.toString()}>; rel="next"`);
    }
    res.json(page.items.map(summaryJson));
  });

  // Before /:id, so "export.csv" is not taken for an id.
  router.get('/api/transactions/export.csv', auth, async (req, res) => {
    const caller = callerOf(res);
    const stream = ctx.transaction.raw.exportTransactions({ ownerId: caller.userId }, grpcMetadata(), {
      deadline: new Date(Date.now() + EXPORT_DEADLINE_MS),
    });
    const items = (stream as AsyncIterable<transactionV1.TransactionSummary>)[Symbol.asyncIterator]();
    req.on('close', () => stream.cancel());
    let first: IteratorResult<transactionV1.TransactionSummary>;
    try {
      first = await items.next();
    } catch (err) {
      throw RpcError.from(err as ServiceError);
    }
    res.status(200);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', 'attachment; filename="transactions.csv"');
    res.setHeader('Cache-Control', 'no-store');
    const send = async (line: string) => {
      if (!res.write(line)) await new Promise((r) => res.once('drain', r));
    };
    await send(csvRow(['reference', 'signer', 'email', 'status', 'created', 'verified']));
    try {
      for (let it = first; !it.done; it = await items.next()) {
        const s = it.value;
        await send(csvRow([s.reference, s.signerName, s.signerEmail, s.status, s.createdAt, s.verifiedAt]));
      }
    } catch (err) {
      ctx.logger.warn({ err }, 'csv export stopped midway');
      res.destroy();
      return;
    }
    res.end();
  });

  router.get('/api/transactions/:id', auth, async (req, res) => {
    const caller = callerOf(res);
    const d = await ctx.transaction.getTransaction({ ownerId: caller.userId, id: pathId(req.params.id) });
    res.json({
      ...summaryJson(d.summary!),
      attestation_type: d.attestationType,
      document_name: d.documentName,
      document_sha256: d.documentSha256,
      signers: d.signers.map((s) => ({
        index: s.index,
        name: s.name,
        email: s.email,
        state: s.state,
        verification_mode: s.verificationMode,
        attempts_left: s.attemptsLeft,
      })),
      events: d.events.map((e) => ({ type: e.type, at: e.at, actor: e.actor, detail: e.detail })),
    });
  });

  router.post('/api/transactions/:id/resend', auth, async (req, res) => {
    const caller = callerOf(res);
    res.json(summaryJson(await ctx.transaction.resendTransaction({ ownerId: caller.userId, id: pathId(req.params.id) })));
  });

  router.post('/api/transactions/:id/cancel', auth, async (req, res) => {
    const caller = callerOf(res);
    res.json(summaryJson(await ctx.transaction.cancelTransaction({ ownerId: caller.userId, id: pathId(req.params.id) })));
  });

  return { router, openapi: openapi() };
}

function openapi(): Record<string, unknown> {
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
