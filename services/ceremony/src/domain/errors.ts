import { conflict, DomainError, invalid, notFound } from '@signet/kit';

/** Unknown, cancelled and finished sessions look the same from outside. */
export const sessionNotFound = () => notFound('this signing link is not valid: it may have been cancelled or already completed');
export const consentAlreadyRecorded = () =>
  conflict('consent has already been recorded for this signing session', 'CONSENT_ALREADY_RECORDED');
/** The sender placed required fields for this signer on the document (issue 33): they are filled before the consent. */
export const fieldsPending = () =>
  conflict(
    'fill in your fields on the document first (GET and PUT /api/sign/{token}/fields), then give your consent',
    'FIELDS_PENDING',
  );
export const consentRequired = () => conflict('consent must be given before the challenge', 'CONSENT_REQUIRED');
export const captureInReview = () => conflict('the last video is being verified; wait for the outcome', 'CAPTURE_IN_REVIEW');
export const alreadyPassed = () => conflict('this signer has already been verified', 'ALREADY_VERIFIED');
export const noAttemptsLeft = () => conflict('no attempts are left for this signer', 'NO_ATTEMPTS_LEFT');
export const noLiveChallenge = () => conflict('there is no live challenge; request a new challenge first', 'NO_LIVE_CHALLENGE');
export const webauthnRequired = () =>
  conflict(
    'this signer confirms with a passkey or security key: complete the device confirmation for this challenge, then send the capture again',
    'WEBAUTHN_REQUIRED',
  );
/** The single upload proves at most "recorded"; the sender asked for more (issue 30). Nothing is drawn. */
export const liveRequired = (required: string) =>
  conflict(
    `the sender requires a ${required} recording from this signer: a single upload can only be "recorded"; record in the signing page (the live recording)`,
    'LIVE_REQUIRED',
  );
/** A capture that proves less than the sender requires: refused before analysis, its challenge used up. */
export const assuranceInsufficient = (required: string, drawsLeft: number, upload: boolean) =>
  conflict(
    (upload
      ? `the sender requires a ${required} recording from this signer, and a single upload can only be "recorded". `
      : `the recording could not be confirmed as ${required}, which the sender requires: it did not reach the service in real time ` +
        `(a slow or interrupted connection does this). `) +
      `This challenge is used up: record again with a new one (${
        drawsLeft > 0
          ? `${drawsLeft} new challenge(s) left in this attempt`
          : 'none is left in this attempt: asking for another spends the attempt'
      })`,
    'ASSURANCE_INSUFFICIENT',
  );
export const staleNonce = () =>
  conflict('the challenge nonce is expired or has been replaced; request a new challenge and record again', 'STALE_NONCE');
export const tooLarge = (what: string) => new DomainError('payload_too_large', `${what} is too large`, 'PAYLOAD_TOO_LARGE');
export const forensicLimit = () =>
  new DomainError('rate_limited', 'the forensic log of this session is full', 'FORENSIC_LIMIT', 3600);

// A capture's video, as measured from its decoded stream (domain/media.ts). Each reason is a value of
// signet_ceremony_captures_total{result} (lower-cased), so a refusal is counted by its cause.
const sec = (s: number) => `${s.toFixed(1)} s`;
export const videoUnreadable = (kind: string) =>
  invalid(`video is not a readable ${kind === 'mp4' ? 'MP4' : 'WebM'} file`, 'VIDEO_UNREADABLE');
export const videoNoStream = () => invalid('video has no video stream', 'VIDEO_NO_STREAM');
export const videoTooLong = (maxSeconds: number, seconds: number) =>
  invalid(`video runs ${sec(seconds)}, longer than the ${maxSeconds} s a capture may last`, 'VIDEO_TOO_LONG');
export const videoTooShort = (minSeconds: number, seconds: number) =>
  invalid(`video runs ${sec(seconds)}, shorter than ${minSeconds} s`, 'VIDEO_TOO_SHORT');
export const videoDurationMismatch = (kind: string, stated: number, decoded: number) =>
  invalid(
    `the ${kind === 'mp4' ? 'MP4' : 'WebM'} header says the video lasts ${sec(stated)} but its frames run ${sec(decoded)}; record again`,
    'VIDEO_DURATION_MISMATCH',
  );
export const videoResolutionLow = (width: number, height: number, minLong: number, minShort: number) =>
  invalid(
    `video is ${width}×${height}, smaller than ${minLong}×${minShort}; record with a camera that gives at least that`,
    'VIDEO_RESOLUTION_TOO_LOW',
  );
export const videoResolutionHigh = (width: number, height: number, maxPixels: number) =>
  invalid(
    `video is ${width}×${height}, more than ${(maxPixels / 1e6).toFixed(1)} megapixels; record at 640×480`,
    'VIDEO_RESOLUTION_TOO_HIGH',
  );
export const videoFrameRateLow = (minFps: number, fps: number) =>
  invalid(
    `video has ${fps.toFixed(1)} frames per second, fewer than ${minFps}; record in better light or close other programs using the camera`,
    'VIDEO_FRAME_RATE_TOO_LOW',
  );
export const videoFrameRateHigh = (detail: string) => invalid(`video ${detail}`, 'VIDEO_FRAME_RATE_TOO_HIGH');
export const videoBitrateLow = (minBitrate: number, bitrate: number, width: number, height: number) =>
  invalid(
    `video carries ${Math.round(bitrate / 1000)} kb/s, under the ${Math.round(minBitrate / 1000)} kb/s a ${width}×${height} capture needs; record again without lowering the quality`,
    'VIDEO_BITRATE_TOO_LOW',
  );

// WebAuthn (usecases/verify-webauthn.ts).
export const webauthnResponseNotJson = () => invalid('response must be the JSON the browser returned');
export const webauthnResponseShape = () => invalid('response must be a WebAuthn credential in JSON form');
export const noWebauthnChallenge = () =>
  conflict('no WebAuthn challenge is pending; request options first', 'NO_WEBAUTHN_CHALLENGE');
export const credentialNotRegistered = () => invalid('this credential is not registered for this signer');
export const credentialExists = () => conflict('this credential is already registered', 'CREDENTIAL_EXISTS');
export const webauthnRejected = (why?: string) =>
  invalid(
    why !== undefined ? `WebAuthn response did not verify: ${why}`.slice(0, 300) : 'WebAuthn response did not verify',
    'WEBAUTHN_REJECTED',
  );
