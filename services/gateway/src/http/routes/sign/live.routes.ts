import express, { type NextFunction, type Request, type Response } from 'express';
import { ceremonyV1 } from '@signet/proto';
import type { GatewayContext } from '../../context.js';
import { badRequest } from '../../errors.js';
import { defineRoute, errorResponses, type AnyRoute } from '../../route.js';
import { CAPTURE_DEADLINE_MS, MAX_FRAME_BYTES } from './capture.upload.js';
import { noStore, notValidLink, SIGN_TAGS, type SignGuard } from './sign.guard.js';
import { receiptJson } from './sign.json.js';
import {
  binary,
  chunkParams,
  chunkQuery,
  liveAckSchema,
  liveParams,
  liveStartSchema,
  receiptSchema,
  tokenParams,
} from './sign.schemas.js';

/** One recorder timeslice of the live ceremony (about 200 KB at the page's bitrate). */
const MAX_LIVE_CHUNK_BYTES = 2 * 1024 * 1024;
/** The final frame is forwarded in messages of this size. */
const FRAME_MESSAGE_BYTES = 64 * 1024;

export function revealJson(r: ceremonyV1.Reveal | undefined) {
  if (!r) return null;
  return {
    segment: r.segment,
    colour: r.colour,
    prompt: r.prompt,
    words: r.words,
    action: r.action || null,
    action_number: r.actionNumber,
    action_count: r.actionCount,
    flashes: r.flashes,
    flash_ms: r.flashMs,
  };
}

/** `shown=3:1240,4:2255`: segments the page showed since its last chunk, at these recording times (ms). */
export function parseShown(q: unknown): ceremonyV1.SegmentShown[] {
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
  const call = ctx.ceremony.clientStream(ceremonyV1.CeremonyServiceService.submitCapture, { deadlineMs: CAPTURE_DEADLINE_MS });
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
  for (let o = 0; o < p.frame.length; o += FRAME_MESSAGE_BYTES)
    call.write({ part: { $case: 'frame', value: p.frame.subarray(o, o + FRAME_MESSAGE_BYTES) } });
  call.end();
  return call.result;
}

/**
 * The live ceremony: start (segment 0 revealed), then one chunk per recorder timeslice, each answered
 * with the next segment, then the final frame. See services/ceremony/src/domain/live.ts.
 */
export function liveRoutes(ctx: GatewayContext, sign: SignGuard): AnyRoute[] {
  return [startRoute(ctx, sign), chunkRoute(ctx, sign), finishRoute(ctx, sign)];
}

const common = { tags: SIGN_TAGS, security: 'public' as const, invalidParams: notValidLink };

/** POST /api/sign/{token}/live: a new live challenge with segment 0 revealed. */
function startRoute(ctx: GatewayContext, { guard, tokenOf }: SignGuard) {
  return defineRoute({
    ...common,
    method: 'post',
    path: '/api/sign/{token}/live',
    operationId: 'startLiveCapture',
    summary: 'Start a live recording',
    description:
      'A new challenge of which only segment 0 (its prompt and screen colour) is revealed; each chunk reveals the next.',
    params: tokenParams,
    use: [guard],
    responses: {
      201: { description: 'Live challenge started', body: liveStartSchema, headers: noStore },
      ...errorResponses(400, 404, 409, 429),
    },
    async handle(_input, req) {
      const l = await ctx.ceremony.startLive({ token: tokenOf(req) });
      return {
        status: 201 as const,
        body: {
          nonce: l.nonce,
          expires_at: l.expiresAt,
          attempt: l.attempt,
          segment_ms: l.segmentMs,
          segments: l.segments,
          draws_left: l.drawsLeft,
          reveal: revealJson(l.reveal),
        },
      };
    },
  });
}

/** POST /api/sign/{token}/live/{nonce}/chunks/{seq}: one recorder timeslice; answers the next segment. */
function chunkRoute(ctx: GatewayContext, { guard, tokenOf }: SignGuard) {
  const chunkBody = express.raw({ type: () => true, limit: MAX_LIVE_CHUNK_BYTES });
  return defineRoute({
    ...common,
    method: 'post',
    path: '/api/sign/{token}/live/{nonce}/chunks/{seq}',
    operationId: 'appendLiveChunk',
    summary: 'Append one chunk of the live recording',
    description: 'Raw bytes, at most 2 MB; the answer reveals the next segment.',
    params: chunkParams,
    query: chunkQuery,
    use: [guard, chunkBody],
    rawBody: { content: { 'application/octet-stream': binary('One recorder timeslice') } },
    responses: {
      200: { description: 'Chunk stored; the next segment', body: liveAckSchema, headers: noStore },
      ...errorResponses(400, 404, 409, 413, 429),
    },
    async handle({ params, query }, req) {
      if (!Buffer.isBuffer(req.body) || req.body.length === 0) throw badRequest('the chunk is the request body; it was empty');
      const ack = await ctx.ceremony.appendLive({
        token: tokenOf(req),
        nonce: params.nonce,
        seq: Number(params.seq),
        data: req.body,
        shown: parseShown(query.shown),
      });
      return { status: 200 as const, body: { seq: ack.seq, done: ack.done, reveal: ack.reveal ? revealJson(ack.reveal) : null } };
    },
  });
}

/** POST /api/sign/{token}/live/{nonce}/finish: the final frame; the capture is checked and accepted. */
function finishRoute(ctx: GatewayContext, { guard, limits, tokenOf, ua }: SignGuard) {
  const frameBody = express.raw({ type: () => true, limit: MAX_FRAME_BYTES });
  const captureLimit = async (req: Request, _res: Response, next: NextFunction) => {
    await limits.capture(req);
    next();
  };
  return defineRoute({
    ...common,
    method: 'post',
    path: '/api/sign/{token}/live/{nonce}/finish',
    operationId: 'finishLiveCapture',
    summary: 'Finish the live recording with the final frame',
    description:
      'The frame (JPEG or PNG) is the body; the capture is checked and accepted. A recording that proves less than the ' +
      "signer's required assurance (e.g. only recorded where live is required) is refused with 409 before analysis, and its challenge is used up.",
    params: liveParams,
    use: [guard, frameBody, captureLimit],
    rawBody: { content: { 'image/jpeg': binary('The final frame'), 'image/png': binary('The final frame') } },
    responses: {
      201: { description: 'Capture accepted', body: receiptSchema, headers: noStore },
      ...errorResponses(400, 404, 409, 413, 429),
    },
    async handle({ params }, req) {
      if (!Buffer.isBuffer(req.body) || req.body.length === 0)
        throw badRequest('the final frame (JPEG or PNG) is the request body; it was empty');
      const receipt = await finishLive(ctx, {
        token: tokenOf(req),
        nonce: params.nonce,
        ip: req.ip ?? '',
        userAgent: ua(req),
        frame: req.body,
      });
      return { status: 201 as const, body: receiptJson(receipt) };
    },
  });
}
