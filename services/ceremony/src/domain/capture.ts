/**
 * Capture records and the object key layout of the captures bucket:
 * `<transaction id>/<signer index>/<capture id>/video.webm|mp4` and `frame.jpg|png`.
 */
import type { ChallengeRecord } from './challenge.js';
import type { LiveAssessment } from './live.js';
import type { ImageKind, VideoKind } from './media.js';
import { sessionId, type CaptureRecord } from './session.js';

export const CONTENT_TYPES = { webm: 'video/webm', mp4: 'video/mp4', jpeg: 'image/jpeg', png: 'image/png' } as const;
const EXT = { webm: 'webm', mp4: 'mp4', jpeg: 'jpg', png: 'png' } as const;

export function captureKeys(transactionId: number, signerIndex: number, captureId: string, video: VideoKind, frame: ImageKind) {
  const prefix = `${transactionId}/${signerIndex}/${captureId}`;
  return { videoKey: `${prefix}/video.${EXT[video]}`, frameKey: `${prefix}/frame.${EXT[frame]}` };
}

const CAPTURE_KEY =
  /^(\d{1,15})\/(\d{1,6})\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/(?:video|frame)\.[a-z0-9]{2,5}$/;

/** The session and capture of a key in the layout above; null for anything else (never swept). */
export function parseCaptureKey(key: string): { sessionId: string; captureId: string } | null {
  const m = CAPTURE_KEY.exec(key);
  if (!m) return null;
  return { sessionId: sessionId(Number(m[1]), Number(m[2])), captureId: m[3]! };
}

/** The challenge as a capture record keeps it (empty when an attempt was spent without one). */
function challengeOf(ch: ChallengeRecord | null, at: Date): CaptureRecord['challenge'] {
  return {
    words: ch?.words ?? [],
    actions: ch?.actions ?? [],
    nonce: ch?.nonce ?? '',
    salt: ch?.salt ?? '',
    issued_at: ch?.issued_at ?? at,
    expires_at: ch?.expires_at ?? at,
  };
}

/** The record of an accepted capture: the challenge it answered, the media, and for a live one the timing evidence. */
export function acceptedCapture(p: {
  captureId: string;
  attempt: number;
  challenge: ChallengeRecord;
  assessed: LiveAssessment | null;
  keys: { videoKey: string; frameKey: string };
  video: { sha256: string; bytes: number; kind: VideoKind; durationSeconds: number };
  frame: { sha256: string; bytes: number; kind: ImageKind };
  verificationMode: string;
  client: { ip: string; user_agent: string };
  at: Date;
}): CaptureRecord {
  const ch = p.challenge;
  return {
    capture_id: p.captureId,
    attempt: p.attempt,
    nonce: ch.nonce,
    challenge: {
      ...challengeOf(ch, p.at),
      ...(ch.timeline ? { timeline: ch.timeline, mode: ch.mode ?? 'upload' } : {}),
    },
    assurance: p.assessed?.assurance ?? 'recorded',
    live: p.assessed ? { shown_ms: p.assessed.shown_ms, arrival_ms: p.assessed.arrival_ms, detail: p.assessed.detail } : null,
    video_key: p.keys.videoKey,
    frame_key: p.keys.frameKey,
    video_sha256: p.video.sha256,
    frame_sha256: p.frame.sha256,
    video_bytes: p.video.bytes,
    frame_bytes: p.frame.bytes,
    video_type: CONTENT_TYPES[p.video.kind],
    frame_type: CONTENT_TYPES[p.frame.kind],
    duration_seconds: p.video.durationSeconds,
    verification_mode: p.verificationMode,
    submitted_at: p.at,
    ip: p.client.ip,
    user_agent: p.client.user_agent,
    outcome: null,
  };
}

/** Why an attempt was spent without a recording (a failed check of its own, mapped to the "challenge" redo step). */
export const FORFEIT_REASON = 'challenge_redraws';

/** The record of an attempt spent by drawing too many challenges: no media, failed at once. */
export function forfeitedCapture(p: {
  captureId: string;
  attempt: number;
  challenge: ChallengeRecord | null;
  verificationMode: string;
  at: Date;
}): CaptureRecord {
  return {
    capture_id: p.captureId,
    attempt: p.attempt,
    nonce: p.challenge?.nonce ?? '',
    challenge: challengeOf(p.challenge, p.at),
    video_key: '',
    frame_key: '',
    video_sha256: '',
    frame_sha256: '',
    video_bytes: 0,
    frame_bytes: 0,
    video_type: '',
    frame_type: '',
    duration_seconds: 0,
    verification_mode: p.verificationMode || 'biometric',
    submitted_at: p.at,
    ip: '',
    user_agent: '',
    outcome: 'FAIL',
    forfeited: true,
    failed_checks: [FORFEIT_REASON],
  };
}
