import express, { type Router } from 'express';
import { ceremonyV1 } from '@signet/proto';
import type { GatewayContext } from '../../context.js';
import { badRequest } from '../../errors.js';
import { CAPTURE_DEADLINE_MS, MAX_FRAME_BYTES } from './capture.upload.js';
import type { SignGuard } from './sign.guard.js';
import { receiptJson } from './sign.json.js';

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
export function addLiveRoutes(router: Router, ctx: GatewayContext, { guard, limits, tokenOf, ua }: SignGuard): void {
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
}
