import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomainError, invalid, RpcError } from '@signet/kit';
import { acceptedCapture, captureKeys, CONTENT_TYPES } from '../domain/capture.js';
import { captureInReview, consentRequired, noLiveChallenge, staleNonce, tooLarge, webauthnRequired } from '../domain/errors.js';
import { assessLive } from '../domain/live.js';
import { MAX_FRAME_BYTES, MAX_VIDEO_BYTES, sniffImage, sniffVideo } from '../domain/media.js';
import { probeVideo, readHead } from '../media/probe.js';
import { clientOf } from '../domain/session.js';
import { stepOf } from '../domain/signer.js';
import { withWebauthn } from '../domain/webauthn.js';
import { captureSubmittedEvent } from '../events/capture-submitted.publisher.js';
import { requiredOf } from '../domain/assurance.js';
import type { CeremonyDeps } from './deps.js';
import { refuseBelowRequired } from './refuse-below-required.js';
import { resolveSession, type Resolved } from './resolve-session.js';

export type CaptureBegin = { token: string; nonce: string; live: boolean; ip: string; userAgent: string };
/** The parts of the capture stream, in order: begin, then video chunks (none for a live capture), then frame chunks. */
export type CapturePart =
  { kind: 'begin'; begin: CaptureBegin } | { kind: 'video' | 'frame'; data: Uint8Array } | { kind: 'empty' };
export type CaptureReceipt = {
  captureId: string;
  attempt: number;
  videoSha256: string;
  frameSha256: string;
  durationSeconds: number;
  status: 'capture_accepted';
  assurance: string;
};
type SubmitDeps = Pick<
  CeremonyDeps,
  'signingTokens' | 'sessions' | 'live' | 'captures' | 'media' | 'metrics' | 'logger' | 'onOutbox' | 'now'
>;

/**
 * SubmitCapture. Order of checks: the token and the live nonce (before reading any media), then
 * sizes while streaming, then magic bytes and ffprobe; only a capture that passed every check is
 * uploaded, and it is accepted by one conditional update that consumes the challenge and writes the
 * event. If that update loses (nonce replaced meanwhile) the uploaded objects are removed. Every
 * outcome is counted (`cancelled` when the caller gave up, whatever the error).
 */
export async function submitCapture(
  deps: SubmitDeps,
  parts: AsyncIterator<CapturePart>,
  cancelled: () => boolean,
): Promise<CaptureReceipt> {
  const timer = deps.metrics.captureSeconds.startTimer();
  try {
    const receipt = await submit(deps, parts);
    timer();
    deps.metrics.captures.inc({ result: 'accepted' });
    return receipt;
  } catch (err) {
    const result = cancelled() ? 'cancelled' : err instanceof DomainError ? err.reason.toLowerCase() : 'error';
    deps.metrics.captures.inc({ result });
    // A call the gateway cancelled (e.g. an upload over the limit) is not a failure of ours.
    if (result === 'error' && !(err instanceof RpcError)) deps.logger.error({ err }, 'capture failed');
    throw err;
  }
}

async function submit(deps: SubmitDeps, parts: AsyncIterator<CapturePart>): Promise<CaptureReceipt> {
  const first = await parts.next();
  const begin = !first.done && first.value.kind === 'begin' ? first.value.begin : undefined;
  if (!begin) throw invalid('the capture stream must start with begin');
  if (!/^[0-9a-f]{64}$/.test(begin.nonce)) throw invalid('nonce must be the 64-hex nonce of the challenge');

  const r = await resolveSession(deps, begin.token);
  const step = stepOf(r.ctx, r.session);
  if (step === 'consent') throw consentRequired();
  if (step === 'verifying') throw captureInReview();
  const ch = r.session.challenge;
  if (!ch) throw noLiveChallenge();
  if (ch.nonce !== begin.nonce || ch.expires_at.getTime() <= deps.now()) throw staleNonce();
  const liveMode = (ch.mode ?? 'upload') === 'live';
  if (begin.live !== liveMode)
    throw invalid(
      liveMode
        ? 'this challenge is live: stream its chunks, then send only the frame with live set'
        : 'this challenge was issued for a single upload: send the video in the capture',
    );
  if (liveMode && !ch.live_started_at) throw invalid('the live recording of this challenge has not started');
  // The sender asked for WebAuthn too (issue 18), or live+webauthn (issue 30): the step must be verified for this very challenge.
  const webauthnAsked = r.ctx.webauthnRequired || requiredOf(r.ctx) === 'live+webauthn';
  if (webauthnAsked && r.session.webauthn?.nonce !== ch.nonce) throw webauthnRequired();
  // A single upload proves "recorded" at most: below the requirement it is refused before any media is read.
  if (!liveMode) await refuseBelowRequired(deps, r, ch, null, webauthnVerified(r));

  const dir = await mkdtemp(join(tmpdir(), 'signet-capture-'));
  const uploaded: string[] = [];
  try {
    const videoPath = join(dir, 'video');
    const liveRec = liveMode ? await deps.live.read(r.session._id, ch.nonce) : null;
    const got = await receive(parts, videoPath, liveRec?.video ?? null);
    const videoKind = sniffVideo(await readHead(videoPath));
    if (!videoKind) throw invalid('video must be WebM or MP4 (checked by its content, not its name)', 'VIDEO_TYPE');
    const frameKind = sniffImage(got.frame);
    if (!frameKind) throw invalid('frame must be a JPEG or PNG image (checked by its content)', 'FRAME_TYPE');
    // Duration, frame rate, size and bitrate as decoded; a refused video is never stored.
    const { ffmpeg, ffprobe, timeoutMs, maxSeconds } = deps.media;
    const probe = await probeVideo(videoPath, videoKind, { ffmpeg, ffprobe, timeoutMs }, { maxSeconds });
    const assessed = liveRec && ch.timeline ? assessLive(ch.timeline, liveRec.metas, probe.durationSeconds) : null;
    // Below the sender's required assurance: refused here, before anything is stored or analysed.
    await refuseBelowRequired(deps, r, ch, assessed, webauthnVerified(r));

    const captureId = randomUUID();
    const keys = captureKeys(r.ctx.transactionId, r.ctx.signerIndex, captureId, videoKind, frameKind);
    uploaded.push(keys.videoKey);
    await deps.captures.put(keys.videoKey, createReadStream(videoPath), got.videoBytes, CONTENT_TYPES[videoKind]);
    uploaded.push(keys.frameKey);
    await deps.captures.put(keys.frameKey, got.frame, got.frame.length, CONTENT_TYPES[frameKind]);

    const record = acceptedCapture({
      captureId,
      attempt: r.session.attempt + 1,
      challenge: ch,
      assessed,
      keys,
      video: { sha256: got.videoSha256, bytes: got.videoBytes, kind: videoKind, durationSeconds: probe.durationSeconds },
      frame: { sha256: got.frameSha256, bytes: got.frame.length, kind: frameKind },
      verificationMode: verificationModeOf(r),
      client: clientOf(begin.ip, begin.userAgent),
      at: new Date(deps.now()),
    });
    const event = captureSubmittedEvent(r.ctx, record, ch.mode ?? 'upload');
    if (!(await deps.sessions.acceptCapture(r.session._id, record, event, new Date(deps.now())))) throw staleNonce();
    uploaded.length = 0;
    if (liveRec) await deps.live.drop(r.session._id, ch.nonce).catch(() => undefined);
    deps.metrics.assurance.inc({ assurance: record.assurance! });
    deps.metrics.captureBytes.observe(got.videoBytes);
    deps.onOutbox();
    return {
      captureId,
      attempt: record.attempt,
      videoSha256: record.video_sha256,
      frameSha256: record.frame_sha256,
      durationSeconds: probe.durationSeconds,
      status: 'capture_accepted',
      assurance: record.assurance!,
    };
  } finally {
    if (uploaded.length) await deps.captures.remove(uploaded);
    await rm(dir, { recursive: true, force: true });
  }
}

/** The WebAuthn step was verified for this very challenge. */
const webauthnVerified = ({ session }: Resolved) => !!session.challenge && session.webauthn?.nonce === session.challenge.nonce;

/** The signer's mode, `+webauthn` when the WebAuthn step was verified for this very challenge. */
const verificationModeOf = (r: Resolved) => withWebauthn(r.ctx.verificationMode || 'biometric', webauthnVerified(r));

/**
 * Reads the rest of the stream: the video to a file (or the live recording already received, which
 * then admits no video chunk) and the frame in memory, each hashed and bounded while it streams.
 */
async function receive(parts: AsyncIterator<CapturePart>, videoPath: string, liveVideo: Buffer | null) {
  const vh = await open(videoPath, 'w');
  const vHash = createHash('sha256');
  const fHash = createHash('sha256');
  let videoBytes = 0;
  if (liveVideo) {
    videoBytes = liveVideo.length;
    vHash.update(liveVideo);
    await vh.write(liveVideo);
  }
  const frameParts: Buffer[] = [];
  let frameBytes = 0;
  let phase: 'video' | 'frame' = 'video';
  try {
    for (;;) {
      const n = await parts.next();
      if (n.done) break;
      const part = n.value;
      if (part.kind === 'video') {
        if (liveVideo) throw invalid('a live capture carries only the frame: its video is the stream already received');
        if (phase !== 'video') throw invalid('video chunks must come before the frame');
        videoBytes += part.data.length;
        if (videoBytes > MAX_VIDEO_BYTES) throw tooLarge('video (50 MB at most)');
        vHash.update(part.data);
        await vh.write(part.data);
      } else if (part.kind === 'frame') {
        phase = 'frame';
        frameBytes += part.data.length;
        if (frameBytes > MAX_FRAME_BYTES) throw tooLarge('final frame (10 MB at most)');
        fHash.update(part.data);
        frameParts.push(Buffer.from(part.data));
      } else throw invalid('begin may only come first');
    }
  } finally {
    await vh.close();
  }
  if (videoBytes === 0) throw invalid('video is required');
  if (frameBytes === 0) throw invalid('frame is required');
  return { videoBytes, videoSha256: vHash.digest('hex'), frame: Buffer.concat(frameParts), frameSha256: fHash.digest('hex') };
}
