import type { Request } from 'express';
import { ceremonyV1 } from '@signet/proto';
import type { GatewayContext } from '../../context.js';
import { badRequest, HttpError } from '../../errors.js';
import type { UploadForm } from '../../upload/upload-bridge.js';

export const MAX_VIDEO_BYTES = 50 * 1024 * 1024;
export const MAX_FRAME_BYTES = 10 * 1024 * 1024;
/** Both files plus the multipart framing (boundaries, part headers, the nonce): a longer declared body is refused unread. */
const MAX_CAPTURE_BYTES = MAX_VIDEO_BYTES + MAX_FRAME_BYTES + 64 * 1024;
export const CAPTURE_DEADLINE_MS = 180_000;

/**
 * POST /api/sign/{token}/capture as a form of the upload bridge, onto the ceremony's client-streaming
 * SubmitCapture: `nonce` must come before the files, then `video`, then `frame`, each forwarded chunk
 * by chunk. Sizes are capped here and again in the ceremony, which refuses a stale nonce as soon as it
 * has read `begin`. Refusals while the body is still arriving are counted by HTTP status.
 */
export function captureForm(
  ctx: GatewayContext,
  req: Request,
  token: string,
  userAgent: string,
): UploadForm<ceremonyV1.CaptureChunk, ceremonyV1.CaptureReceipt> {
  let nonce: string | undefined;
  const seen = { video: false, frame: false };
  return {
    limits: { fileSize: MAX_VIDEO_BYTES, files: 2, fields: 4, fieldSize: 1024, parts: 8 },
    maxDeclared: { bytes: MAX_CAPTURE_BYTES, detail: 'capture is too large (video 50 MB and frame 10 MB at most)' },
    details: { unparsable: 'malformed multipart body', malformed: 'malformed multipart body' },
    field(name, value) {
      if (name === 'nonce') nonce = value.trim();
    },
    file(name) {
      if (name !== 'video' && name !== 'frame') throw badRequest(`unexpected file field "${name}"; send video and frame`);
      if (!nonce) throw badRequest('nonce is required and must come before the video and frame fields');
      if (seen[name]) throw badRequest(`${name} was sent twice`);
      if ((name === 'video' && seen.frame) || (name === 'frame' && !seen.video)) throw badRequest('video must come before frame');
      seen[name] = true;
      let bytes = 0;
      return {
        tooLarge: `${name} is too large (50 MB at most)`,
        data(chunk) {
          bytes += chunk.length;
          if (name === 'frame' && bytes > MAX_FRAME_BYTES) throw new HttpError(413, 'frame is too large (10 MB at most)');
          return [{ part: { $case: name, value: chunk } }];
        },
        end: () => [],
      };
    },
    open: () => ctx.ceremony.clientStream(ceremonyV1.CeremonyServiceService.submitCapture, { deadlineMs: CAPTURE_DEADLINE_MS }),
    begin: () => ({
      part: {
        $case: 'begin',
        value: { token, nonce: nonce!, ip: req.ip ?? '', userAgent, videoContentType: '', frameContentType: '', live: false },
      },
    }),
    end() {
      if (!seen.video || !seen.frame) throw badRequest(`${!seen.video ? 'video' : 'frame'} is required`);
      return [];
    },
    onCut: (status) => cutCounter(ctx).inc({ status: String(status) }),
  };
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
