import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { status, type sendUnaryData, type ServerReadableStream, type ServiceError } from '@grpc/grpc-js';
import { DomainError, invalid, outboxEvent, RpcError, toServiceError } from '@signet/kit';
import { eventsV1, type ceremonyV1 } from '@signet/proto';
import { captureInReview, consentRequired, noLiveChallenge, staleNonce, tooLarge } from '../domain/errors.js';
import { MAX_FRAME_BYTES, MAX_VIDEO_BYTES, probeVideo, readHead, sniffImage, sniffVideo } from '../domain/media.js';
import { withWebauthn } from '../domain/webauthn.js';
import { ACTION_SECONDS, READ_SECONDS } from '../domain/challenge.js';
import { assessLive } from '../domain/live.js';
import { timelineMessage } from './mappers.js';
import type { CaptureRecord } from '../store/session.repository.js';
import { resolve, stepOf, type CeremonyDeps } from './context.js';

export const CAPTURE_SUBJECT = 'signet.ceremony.capture.submitted';

const CONTENT_TYPES = { webm: 'video/webm', mp4: 'video/mp4', jpeg: 'image/jpeg', png: 'image/png' } as const;
const EXT = { webm: 'webm', mp4: 'mp4', jpeg: 'jpg', png: 'png' } as const;

/**
 * Client-streaming SubmitCapture. Order of checks: the token and the live nonce (before reading any
 * media), then sizes while streaming, then magic bytes and ffprobe; only a capture that passed every
 * check is uploaded, and it is accepted by one conditional update that consumes the challenge and
 * writes the event. If that update loses (nonce replaced meanwhile) the uploaded objects are removed.
 */
export function captureHandler(deps: CeremonyDeps) {
  return (
    call: ServerReadableStream<ceremonyV1.CaptureChunk, ceremonyV1.CaptureReceipt>,
    callback: sendUnaryData<ceremonyV1.CaptureReceipt>,
  ) => {
    const end = deps.metrics.grpcServerDuration.startTimer({ method: 'signet.ceremony.v1.CeremonyService/SubmitCapture' });
    const timer = deps.counters.captureSeconds.startTimer();
    submit(deps, call).then(
      (res) => {
        end({ code: 'OK' });
        timer();
        deps.counters.captures.inc({ result: 'accepted' });
        callback(null, res);
      },
      (err: unknown) => {
        const se = toServiceError(err);
        end({ code: status[se.code ?? status.INTERNAL] });
        const result = call.cancelled ? 'cancelled' : err instanceof DomainError ? err.reason.toLowerCase() : 'error';
        deps.counters.captures.inc({ result });
        // A call the gateway cancelled (e.g. an upload over the limit) is not a failure of ours.
        if (result === 'error' && !(err instanceof RpcError)) deps.logger.error({ err }, 'capture failed');
        // Stop reading: the client sees the status at once.
        call.removeAllListeners('data');
        callback(se as ServiceError, null);
      },
    );
  };
}

async function submit(deps: CeremonyDeps, call: ServerReadableStream<ceremonyV1.CaptureChunk, ceremonyV1.CaptureReceipt>) {
  const iter = call[Symbol.asyncIterator]() as AsyncIterator<ceremonyV1.CaptureChunk>;
  const first = await iter.next();
  const begin = first.done ? undefined : first.value.part?.$case === 'begin' ? first.value.part.value : undefined;
  if (!begin) throw invalid('the capture stream must start with begin');
  if (!/^[0-9a-f]{64}$/.test(begin.nonce)) throw invalid('nonce must be the 64-hex nonce of the challenge');

  const r = await resolve(deps, begin.token);
  const step = stepOf(r.ctx, r.session);
  if (step === 'consent') throw consentRequired();
  if (step === 'verifying') throw captureInReview();
  const ch = r.session.challenge;
  if (!ch) throw noLiveChallenge();
  if (ch.nonce !== begin.nonce || ch.expires_at.getTime() <= Date.now()) throw staleNonce();
  const liveMode = (ch.mode ?? 'upload') === 'live';
  if (begin.live !== liveMode)
    throw invalid(
      liveMode
        ? 'this challenge is live: stream its chunks, then send only the frame with live set'
        : 'this challenge was issued for a single upload: send the video in the capture',
    );
  if (liveMode && !ch.live_started_at) throw invalid('the live recording of this challenge has not started');

  const dir = await mkdtemp(join(tmpdir(), 'signet-capture-'));
  const uploaded: string[] = [];
  try {
    const videoPath = join(dir, 'video');
    const vh = await open(videoPath, 'w');
    const vHash = createHash('sha256');
    const fHash = createHash('sha256');
    let videoBytes = 0;
    const liveRec = liveMode ? await deps.live.read(r.session._id, ch.nonce) : null;
    if (liveRec) {
      videoBytes = liveRec.video.length;
      vHash.update(liveRec.video);
      await vh.write(liveRec.video);
    }
    const frameParts: Buffer[] = [];
    let frameBytes = 0;
    let phase: 'video' | 'frame' = 'video';
    try {
      for (;;) {
        const n = await iter.next();
        if (n.done) break;
        const part = n.value.part;
        if (part?.$case === 'video') {
          if (liveRec) throw invalid('a live capture carries only the frame: its video is the stream already received');
          if (phase !== 'video') throw invalid('video chunks must come before the frame');
          videoBytes += part.value.length;
          if (videoBytes > MAX_VIDEO_BYTES) throw tooLarge('video (50 MB at most)');
          vHash.update(part.value);
          await vh.write(part.value);
        } else if (part?.$case === 'frame') {
          phase = 'frame';
          frameBytes += part.value.length;
          if (frameBytes > MAX_FRAME_BYTES) throw tooLarge('final frame (10 MB at most)');
          fHash.update(part.value);
          frameParts.push(Buffer.from(part.value));
        } else throw invalid('begin may only come first');
      }
    } finally {
      await vh.close();
    }
    if (videoBytes === 0) throw invalid('video is required');
    if (frameBytes === 0) throw invalid('frame is required');
    const videoKind = sniffVideo(await readHead(videoPath));
    if (!videoKind) throw invalid('video must be WebM or MP4 (checked by its content, not its name)', 'VIDEO_TYPE');
    const frame = Buffer.concat(frameParts);
    const frameKind = sniffImage(frame);
    if (!frameKind) throw invalid('frame must be a JPEG or PNG image (checked by its content)', 'FRAME_TYPE');
    // Duration, frame rate, size and bitrate as decoded; a refused video is never stored.
    const probe = await probeVideo(
      videoPath,
      videoKind,
      { ffmpeg: deps.cfg.FFMPEG_PATH, ffprobe: deps.cfg.FFPROBE_PATH, timeoutMs: deps.cfg.MEDIA_TIMEOUT_MS },
      { maxSeconds: deps.cfg.MEDIA_MAX_VIDEO_SECONDS },
    );

    const captureId = randomUUID();
    const prefix = `${r.ctx.transactionId}/${r.ctx.signerIndex}/${captureId}`;
    const videoKey = `${prefix}/video.${EXT[videoKind]}`;
    const frameKey = `${prefix}/frame.${EXT[frameKind]}`;
    const bucket = deps.cfg.BUCKET_CAPTURES;
    uploaded.push(videoKey);
    await deps.s3.putObject(bucket, videoKey, createReadStream(videoPath), videoBytes, {
      'Content-Type': CONTENT_TYPES[videoKind],
    });
    uploaded.push(frameKey);
    await deps.s3.putObject(bucket, frameKey, frame, frameBytes, { 'Content-Type': CONTENT_TYPES[frameKind] });

    const attempt = r.session.attempt + 1;
    const assessed = liveRec && ch.timeline ? assessLive(ch.timeline, liveRec.metas, probe.durationSeconds) : null;
    const assurance = assessed?.assurance ?? 'recorded';
    const webauthnDone = r.session.webauthn?.nonce === ch.nonce;
    const mode = withWebauthn(r.ctx.verificationMode || 'biometric', webauthnDone);
    const videoSha256 = vHash.digest('hex');
    const frameSha256 = fHash.digest('hex');
    const record: CaptureRecord = {
      capture_id: captureId,
      attempt,
      nonce: ch.nonce,
      challenge: {
        words: ch.words,
        actions: ch.actions,
        nonce: ch.nonce,
        salt: ch.salt,
        issued_at: ch.issued_at,
        expires_at: ch.expires_at,
        ...(ch.timeline ? { timeline: ch.timeline, mode: ch.mode ?? 'upload' } : {}),
      },
      assurance,
      live: assessed ? { shown_ms: assessed.shown_ms, arrival_ms: assessed.arrival_ms, detail: assessed.detail } : null,
      video_key: videoKey,
      frame_key: frameKey,
      video_sha256: videoSha256,
      frame_sha256: frameSha256,
      video_bytes: videoBytes,
      frame_bytes: frameBytes,
      video_type: CONTENT_TYPES[videoKind],
      frame_type: CONTENT_TYPES[frameKind],
      duration_seconds: probe.durationSeconds,
      verification_mode: mode,
      submitted_at: new Date(),
      ip: begin.ip.slice(0, 64),
      user_agent: begin.userAgent.slice(0, 512),
      outcome: null,
    };
    const event = outboxEvent(CAPTURE_SUBJECT, (m) =>
      eventsV1.CaptureSubmitted.encode({
        eventId: m.event_id,
        occurredAt: m.occurred_at,
        transactionId: Number(r.ctx.transactionId),
        signerIndex: r.ctx.signerIndex,
        captureId,
        attempt,
        videoKey,
        frameKey,
        referenceKey: r.ctx.referenceKey,
        challenge: {
          words: ch.words,
          actions: ch.actions,
          nonce: ch.nonce,
          expiresAt: ch.expires_at.toISOString(),
          readSeconds: READ_SECONDS,
          actionSeconds: ACTION_SECONDS,
          timeline: timelineMessage(ch.timeline),
          mode: ch.mode ?? 'upload',
        },
        documentSha256: r.ctx.documentSha256,
        verificationMode: mode,
        videoSha256,
        frameSha256,
        live: assessed
          ? { shownMs: assessed.shown_ms, arrivalMs: assessed.arrival_ms, assurance: assessed.assurance, detail: assessed.detail }
          : undefined,
        durationSeconds: probe.durationSeconds,
      }).finish(),
    );
    if (!(await deps.sessions.acceptCapture(r.session._id, record, event, new Date()))) throw staleNonce();
    uploaded.length = 0;
    if (liveRec) await deps.live.drop(r.session._id, ch.nonce).catch(() => undefined);
    deps.counters.assurance.inc({ assurance });
    deps.counters.captureBytes.observe(videoBytes);
    deps.relay.kick();
    return {
      captureId,
      attempt,
      videoSha256,
      frameSha256,
      durationSeconds: probe.durationSeconds,
      status: 'capture_accepted',
      assurance,
    };
  } finally {
    if (uploaded.length) await deps.s3.removeObjects(deps.cfg.BUCKET_CAPTURES, uploaded).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}
