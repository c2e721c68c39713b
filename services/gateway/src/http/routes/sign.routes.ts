import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import busboy from 'busboy';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { Metadata, type ServiceError } from '@grpc/grpc-js';
import { z } from 'zod';
import { injectContext, RpcError } from '@signet/kit';
import type { ceremonyV1 } from '@signet/proto';
import type { GatewayContext, RouteModule } from '../context.js';
import { badRequest, HttpError, httpStatusOf } from '../errors.js';
import { rateLimitCheck, SIGN_LIMITS } from '../rate-limit.js';

/** URL-safe signing tokens (≥128 bits); anything else cannot be a link we sent. */
const TOKEN = /^[A-Za-z0-9_-]{16,128}$/;
const MAX_VIDEO_BYTES = 50 * 1024 * 1024;
const MAX_FRAME_BYTES = 10 * 1024 * 1024;
/** Both files plus the multipart framing (boundaries, part headers, the nonce): a longer declared body is refused unread. */
const MAX_CAPTURE_BYTES = MAX_VIDEO_BYTES + MAX_FRAME_BYTES + 64 * 1024;
const CAPTURE_DEADLINE_MS = 180_000;
/** After refusing an upload early: how long, and how much of the rest, is read and discarded before closing. */
const LINGER_MS = 1_000;
const LINGER_BYTES = 1024 * 1024;
/** One recorder timeslice of the live ceremony (about 200 KB at the page's bitrate). */
const MAX_LIVE_CHUNK_BYTES = 2 * 1024 * 1024;

/** The built signing page (services/web/dist), same relative place from src/ and dist/. */
const WEB_DIST = fileURLToPath(new URL('../../../../web/dist/', import.meta.url));

const consentBody = z.object({ consent_text_version: z.string().min(1).max(64) });
const verifyBody = z.object({ response: z.record(z.string(), z.unknown()) });
const forensicBody = z.object({
  events: z
    .array(
      z.object({
        type: z.string().min(1).max(64),
        t: z.number().finite().nonnegative(),
        data: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .min(1)
    .max(500),
});

function field(issue: z.core.$ZodIssue): string {
  return `${issue.path.join('.') || 'body'}: ${issue.message}`;
}

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body ?? {});
  if (!r.success) throw badRequest(field(r.error.issues[0]!));
  return r.data;
}

function summaryJson(s: ceremonyV1.CeremonySummary) {
  return {
    signer_name: s.signerName,
    issuer_name: s.issuerName,
    document_name: s.documentName,
    document_sha256_prefix: s.documentSha256Prefix,
    attestation_type: s.attestationType,
    attestation_text: s.attestationText,
    step: s.step,
    attempts_left: s.attemptsLeft,
    attempt: s.attempt,
    webauthn_offered: s.webauthnOffered,
    webauthn_done: s.webauthnDone,
    verification_mode: s.verificationMode,
    outcome: s.outcome || null,
    consent_text_version: s.consentTextVersion,
    consent_text: s.consentText,
    draws_left: s.drawsLeft,
    redo: s.redo,
  };
}

function revealJson(r: ceremonyV1.Reveal | undefined) {
  if (!r) return null;
  return {
    segment: r.segment,
    colour: r.colour,
    prompt: r.prompt,
    words: r.words,
    action: r.action || null,
    action_number: r.actionNumber,
    action_count: r.actionCount,
  };
}

function receiptJson(receipt: ceremonyV1.CaptureReceipt) {
  return {
    capture_id: receipt.captureId,
    attempt: receipt.attempt,
    status: receipt.status,
    video_sha256: receipt.videoSha256,
    frame_sha256: receipt.frameSha256,
    duration_seconds: receipt.durationSeconds,
    assurance: receipt.assurance,
  };
}

/** `shown=3:1240,4:2255`: segments the page showed since its last chunk, at these recording times (ms). */
function parseShown(q: unknown): ceremonyV1.SegmentShown[] {
  if (q === undefined || q === '') return [];
  if (typeof q !== 'string' || q.length > 2000 || !/^\d{1,4}:\d{1,7}(,\d{1,4}:\d{1,7})*$/.test(q))
    throw badRequest('shown must be segment:ms pairs separated by commas, e.g. 3:3120,4:4105');
  return q.split(',').map((p) => {
    const [segment, ms] = p.split(':').map(Number);
    return { segment: segment!, shownMs: ms! };
  });
}

/** The live capture's end: the final frame, sent after the chunks through the same checks as an upload. */
function finishLive(
  ctx: GatewayContext,
  p: { token: string; nonce: string; ip: string; userAgent: string; frame: Buffer },
): Promise<ceremonyV1.CaptureReceipt> {
  return new Promise((resolve, reject) => {
    const md = new Metadata();
    for (const [k, v] of Object.entries(injectContext())) md.set(k, v);
    const call = ctx.ceremony.raw.submitCapture(
      md,
      { deadline: new Date(Date.now() + CAPTURE_DEADLINE_MS) },
      (err: ServiceError | null, r?: ceremonyV1.CaptureReceipt) => (err ? reject(RpcError.from(err)) : resolve(r!)),
    );
    call.write({
      part: {
        $case: 'begin',
        value: {
          token: p.token,
          nonce: p.nonce,
          ip: p.ip,
          userAgent: p.userAgent,
          videoContentType: '',
          frameContentType: '',
          live: true,
        },
      },
    });
    for (let o = 0; o < p.frame.length; o += 64 * 1024)
      call.write({ part: { $case: 'frame', value: p.frame.subarray(o, o + 64 * 1024) } });
    call.end();
  });
}

/** /api/sign/{token}/*: the public signing ceremony, authorised by the token; and the page at /sign/{token}. */
export function signRoutes(ctx: GatewayContext): RouteModule {
  const router = Router();
  // Ceremony rate limits: rows of the gateway's one table (rate-limit.ts; docs/decisions.md "Ceremony rate limits").
  const limits = {
    ip: rateLimitCheck(ctx, SIGN_LIMITS.ip),
    token: rateLimitCheck(ctx, SIGN_LIMITS.token),
    capture: rateLimitCheck(ctx, SIGN_LIMITS.capture),
  };

  /** Every ceremony route: the IP limit (malformed tokens count too), a well-formed token, then the token limit. */
  const guard = async (req: Request, _res: Response, next: NextFunction) => {
    await limits.ip(req);
    if (!TOKEN.test(String(req.params.token))) throw new HttpError(404, 'this signing link is not valid');
    await limits.token(req);
    next();
  };
  const tokenOf = (req: Request) => String(req.params.token);
  const ua = (req: Request) => String(req.headers['user-agent'] ?? '').slice(0, 512);
  const json64k = express.json({ limit: '64kb' });
  const json256k = express.json({ limit: '256kb' });

  router.get('/api/sign/:token/summary', guard, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(summaryJson(await ctx.ceremony.getSummary({ token: tokenOf(req) })));
  });

  /** The document being signed, streamed from the transaction service, for the signer to read. */
  router.get('/api/sign/:token/document', guard, async (req, res) => {
    const md = new Metadata();
    for (const [k, v] of Object.entries(injectContext())) md.set(k, v);
    const call = ctx.transaction.raw.getSigningDocument({ token: tokenOf(req) }, md, {
      deadline: new Date(Date.now() + 120_000),
    });
    res.on('close', () => call.cancel());
    let started = false;
    await new Promise<void>((resolve, reject) => {
      call.on('data', (chunk: { data: Uint8Array; name: string; size: number }) => {
        if (!started) {
          started = true;
          const name = (chunk.name || 'document.pdf').replace(/[^\w .,()-]/g, '_');
          res.setHeader('Content-Type', 'application/pdf');
          res.setHeader('Content-Length', String(chunk.size));
          res.setHeader('Content-Disposition', `inline; filename="${name}"`);
          res.setHeader('Cache-Control', 'private, no-store');
          res.setHeader('X-Content-Type-Options', 'nosniff');
        }
        if (chunk.data.length && !res.write(chunk.data)) {
          call.pause();
          res.once('drain', () => call.resume());
        }
      });
      // The outcome is the status, not 'end' (which a failed call may emit too, before its error).
      call.on('status', (st: { code: number }) => {
        if (st.code !== 0) return;
        res.end();
        resolve();
      });
      call.on('error', (err: ServiceError) => {
        if (started) {
          res.destroy();
          resolve();
        } else if (err.code === 1)
          resolve(); // cancelled by the client going away
        else if (err.code === 5)
          reject(new HttpError(404, 'this signing link is not valid: it may have been cancelled or already completed'));
        else reject(RpcError.from(err));
      });
    });
  });

  router.post('/api/sign/:token/consent', guard, json64k, async (req, res) => {
    const body = parse(consentBody, req.body);
    const s = await ctx.ceremony.recordConsent({
      token: tokenOf(req),
      consentTextVersion: body.consent_text_version,
      ip: req.ip ?? '',
      userAgent: ua(req),
    });
    res.status(201).json(summaryJson(s));
  });

  router.get('/api/sign/:token/challenge', guard, async (req, res) => {
    const c = await ctx.ceremony.issueChallenge({ token: tokenOf(req) });
    res.setHeader('Cache-Control', 'no-store');
    res.json({
      words: c.words,
      actions: c.actions,
      nonce: c.nonce,
      expires_at: c.expiresAt,
      attempt: c.attempt,
      action_seconds: c.actionSeconds,
      read_seconds: c.readSeconds,
      timeline: c.timeline
        ? {
            segment_ms: c.timeline.segmentMs,
            words_start_ms: c.timeline.wordsStartMs,
            words_end_ms: c.timeline.wordsEndMs,
            actions: c.timeline.actions.map((a) => ({ action: a.action, start_ms: a.startMs, end_ms: a.endMs })),
            colours: c.timeline.colours,
            total_ms: c.timeline.totalMs,
          }
        : null,
      draws_left: c.drawsLeft,
      assurance: c.assurance,
    });
  });

  router.post('/api/sign/:token/capture', guard, async (req, res) => {
    await limits.capture(req);
    if (!req.is('multipart/form-data'))
      throw badRequest('capture must be multipart/form-data with fields nonce, video and frame');
    const receipt = await streamCapture(ctx, req, tokenOf(req), ua(req));
    res.status(201).json(receiptJson(receipt));
  });

  // The live ceremony: start (segment 0 revealed), then one chunk per recorder timeslice, each
  // answered with the next segment, then the final frame. See services/ceremony/src/domain/live.ts.
  router.post('/api/sign/:token/live', guard, async (req, res) => {
    const l = await ctx.ceremony.startLive({ token: tokenOf(req) });
    res.setHeader('Cache-Control', 'no-store');
    res.status(201).json({
      nonce: l.nonce,
      expires_at: l.expiresAt,
      attempt: l.attempt,
      segment_ms: l.segmentMs,
      segments: l.segments,
      draws_left: l.drawsLeft,
      reveal: revealJson(l.reveal),
    });
  });

  const chunkBody = express.raw({ type: () => true, limit: MAX_LIVE_CHUNK_BYTES });
  router.post('/api/sign/:token/live/:nonce/chunks/:seq', guard, chunkBody, async (req, res) => {
    const seq = Number(req.params.seq);
    if (!/^\d{1,4}$/.test(String(req.params.seq))) throw badRequest('seq must be the chunk number (0, 1, 2, ...)');
    if (!Buffer.isBuffer(req.body) || req.body.length === 0) throw badRequest('the chunk is the request body; it was empty');
    const ack = await ctx.ceremony.appendLive({
      token: tokenOf(req),
      nonce: String(req.params.nonce),
      seq,
      data: req.body,
      shown: parseShown(req.query.shown),
    });
    res.setHeader('Cache-Control', 'no-store');
    res.json({ seq: ack.seq, done: ack.done, reveal: ack.reveal ? revealJson(ack.reveal) : null });
  });

  const frameBody = express.raw({ type: () => true, limit: MAX_FRAME_BYTES });
  router.post('/api/sign/:token/live/:nonce/finish', guard, frameBody, async (req, res) => {
    await limits.capture(req);
    if (!Buffer.isBuffer(req.body) || req.body.length === 0)
      throw badRequest('the final frame (JPEG or PNG) is the request body; it was empty');
    const receipt = await finishLive(ctx, {
      token: tokenOf(req),
      nonce: String(req.params.nonce),
      ip: req.ip ?? '',
      userAgent: ua(req),
      frame: req.body,
    });
    res.status(201).json(receiptJson(receipt));
  });

  router.post('/api/sign/:token/webauthn/options', guard, async (req, res) => {
    const o = await ctx.ceremony.getWebauthnOptions({ token: tokenOf(req) });
    res.setHeader('Cache-Control', 'no-store');
    res.json({ kind: o.kind, options: JSON.parse(o.optionsJson) as unknown });
  });

  router.post('/api/sign/:token/webauthn/verify', guard, json256k, async (req, res) => {
    const body = parse(verifyBody, req.body);
    const r = await ctx.ceremony.verifyWebauthn({ token: tokenOf(req), responseJson: JSON.stringify(body.response) });
    res.json({ verified: r.verified, kind: r.kind, verification_mode: r.verificationMode });
  });

  router.post('/api/sign/:token/forensic', guard, json64k, async (req, res) => {
    const body = parse(forensicBody, req.body);
    const r = await ctx.ceremony.logForensic({
      token: tokenOf(req),
      batchJson: JSON.stringify(req.body),
      ip: req.ip ?? '',
      userAgent: ua(req),
    });
    void body;
    res.status(202).json({ batch: r.batch, batches_left: r.batchesLeft, received_at: r.receivedAt });
  });

  // The signing page. Its token stays out of Referer headers and the page is never cached.
  const pageHeaders = (res: Response) => {
    res.setHeader(
      'Content-Security-Policy',
      "default-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self'; style-src 'self'; script-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'",
    );
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader(
      'Permissions-Policy',
      'camera=(self), microphone=(self), publickey-credentials-get=(self), publickey-credentials-create=(self)',
    );
    res.setHeader('X-Content-Type-Options', 'nosniff');
  };
  router.use('/assets', express.static(`${WEB_DIST}assets`, { immutable: true, maxAge: '365d', index: false }), (_req, res) => {
    res.status(404).type('text/plain').send('not found');
  });
  router.get('/sign/:token', (req, res) => {
    pageHeaders(res);
    res.setHeader('Cache-Control', 'no-store');
    const page = `${WEB_DIST}sign.html`;
    if (!existsSync(page)) {
      res.status(503).type('text/plain').send('The signing page has not been built (pnpm --filter @signet/web build).');
      return;
    }
    res.sendFile(page);
  });

  return { router, openapi: signOpenapi() };
}

/**
 * Streams the multipart body to the ceremony's client-streaming SubmitCapture: `nonce` must come
 * before the files, then `video`, then `frame`. Nothing is buffered here beyond a chunk; the
 * gRPC stream's backpressure pauses the upload. Sizes are capped here and again in the ceremony.
 *
 * Any refusal — ours (sizes, field order) or the ceremony's (a stale nonce, a finished session,
 * answered as soon as it has read `begin`) — settles at once, while the body may still be arriving:
 * the upload is detached and left unread, the answer carries `Connection: close`, and Node closes
 * the connection once the answer is flushed (docs/decisions.md "Early refusal of an upload").
 */
function streamCapture(ctx: GatewayContext, req: Request, token: string, userAgent: string): Promise<ceremonyV1.CaptureReceipt> {
  const declared = Number(req.headers['content-length']);
  if (declared > MAX_CAPTURE_BYTES) {
    const e = new HttpError(413, 'capture is too large (video 50 MB and frame 10 MB at most)');
    closeUpload(ctx, req, e);
    return Promise.reject(e);
  }
  return new Promise((resolve, reject) => {
    let nonce: string | undefined;
    let failure: HttpError | RpcError | undefined;
    let call: ReturnType<typeof ctx.ceremony.raw.submitCapture> | undefined;
    let outcome: Promise<ceremonyV1.CaptureReceipt> | undefined;
    const seen = { video: false, frame: false };
    let pumping = Promise.resolve();
    let bb: busboy.Busboy;
    /** The first refusal wins and is answered now; nothing more is read or forwarded. */
    const fail = (e: HttpError | RpcError) => {
      if (failure) return;
      failure = e;
      call?.cancel();
      req.unpipe(bb);
      closeUpload(ctx, req, e);
      reject(e);
    };
    try {
      bb = busboy({
        headers: req.headers,
        limits: { fileSize: MAX_VIDEO_BYTES, files: 2, fields: 4, fieldSize: 1024, parts: 8 },
      });
    } catch {
      reject(badRequest('malformed multipart body'));
      return;
    }
    const open = () => {
      const md = new Metadata();
      for (const [k, v] of Object.entries(injectContext())) md.set(k, v);
      outcome = new Promise((res, rej) => {
        call = ctx.ceremony.raw.submitCapture(
          md,
          { deadline: new Date(Date.now() + CAPTURE_DEADLINE_MS) },
          (err: ServiceError | null, r?: ceremonyV1.CaptureReceipt) => {
            if (err) {
              // The ceremony may answer before the upload is over (it checks the nonce first): answer
              // the signer now. A cancellation we asked for carries no information; `fail` keeps our reason.
              const e = RpcError.from(err);
              fail(e);
              rej(failure);
            } else res(r!);
          },
        );
      });
      outcome.catch(() => undefined);
      call!.write({
        part: {
          $case: 'begin',
          value: { token, nonce: nonce!, ip: req.ip ?? '', userAgent, videoContentType: '', frameContentType: '', live: false },
        },
      });
    };
    bb.on('field', (name, value) => {
      if (name === 'nonce') nonce = value.trim();
    });
    bb.on('file', (name, stream, info) => {
      void info;
      if (failure) return void stream.resume();
      if (name !== 'video' && name !== 'frame') return fail(badRequest(`unexpected file field "${name}"; send video and frame`));
      if (!nonce) return fail(badRequest('nonce is required and must come before the video and frame fields'));
      if (seen[name]) return fail(badRequest(`${name} was sent twice`));
      if ((name === 'video' && seen.frame) || (name === 'frame' && !seen.video))
        return fail(badRequest('video must come before frame'));
      seen[name] = true;
      if (!call) open();
      // Files are forwarded strictly one after another: busboy may announce the frame while the
      // video's stream still holds buffered data, so each file waits for the previous one to end.
      pumping = pumping.then(
        () =>
          new Promise<void>((done) => {
            let bytes = 0;
            stream.on('limit', () => fail(new HttpError(413, `${name} is too large (50 MB at most)`)));
            stream.on('end', () => done());
            stream.on('error', () => done());
            stream.on('data', (chunk: Buffer) => {
              if (failure || !call) return;
              bytes += chunk.length;
              if (name === 'frame' && bytes > MAX_FRAME_BYTES)
                return fail(new HttpError(413, 'frame is too large (10 MB at most)'));
              if (!call.write({ part: { $case: name, value: chunk } })) {
                stream.pause();
                call.once('drain', () => stream.resume());
              }
            });
          }),
      );
    });
    bb.on('error', () => fail(badRequest('malformed multipart body')));
    bb.on(
      'close',
      () =>
        void pumping.then(() => {
          if (failure) return;
          if (!seen.video || !seen.frame) return fail(badRequest(`${!seen.video ? 'video' : 'frame'} is required`));
          call!.end();
          outcome!.then(resolve, reject);
        }),
    );
    req.pipe(bb);
  });
}

/**
 * Leaves the rest of a refused upload unread: the answer (still to be sent by the route or the error
 * boundary) says `Connection: close`, and once it is flushed the connection is closed instead of the
 * body being read to its end for a next request. A body already complete keeps its connection.
 */
function closeUpload(ctx: GatewayContext, req: Request, err: HttpError | RpcError): void {
  if (req.complete) return;
  const res = req.res;
  if (res && !res.headersSent) res.setHeader('Connection', 'close');
  req.pause();
  // Node ends a `Connection: close` answer with socket.destroySoon(): FIN, then a close that, with the
  // upload still arriving, is a TCP reset — which can reach the client before it has read the answer
  // (Node's own client then reports EPIPE, not the 409). A lingering close instead: FIN after the
  // answer, then what still arrives is discarded for at most LINGER_MS or LINGER_BYTES, then closed.
  const socket = req.socket;
  socket.destroySoon = () => {
    socket.end();
    let budget = LINGER_BYTES;
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    socket.once('close', () => clearTimeout(timer));
    req.on('data', (chunk: Buffer) => {
      budget -= chunk.length;
      if (budget < 0) socket.destroy();
    });
    req.resume();
  };
  cutCounter(ctx).inc({ status: String(err instanceof HttpError ? err.status : httpStatusOf(err)) });
}

const cut = new WeakMap<object, ReturnType<GatewayContext['metrics']['counter']>>();
function cutCounter(ctx: GatewayContext) {
  let c = cut.get(ctx.metrics);
  if (!c) {
    c = ctx.metrics.counter(
      'signet_gateway_capture_uploads_cut_total',
      'Capture uploads refused while their body was still arriving, answered at once and closed unread, by HTTP status',
      ['status'],
    );
    cut.set(ctx.metrics, c);
  }
  return c;
}

function signOpenapi() {
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
