import { conflict, DomainError, notFound } from '@signet/kit';

/** Unknown, cancelled and finished sessions look the same from outside. */
export const sessionNotFound = () => notFound('this signing link is not valid: it may have been cancelled or already completed');
export const consentAlreadyRecorded = () =>
  conflict('consent has already been recorded for this signing session', 'CONSENT_ALREADY_RECORDED');
export const consentRequired = () => conflict('consent must be given before the challenge', 'CONSENT_REQUIRED');
export const captureInReview = () => conflict('the last video is being verified; wait for the outcome', 'CAPTURE_IN_REVIEW');
export const alreadyPassed = () => conflict('this signer has already been verified', 'ALREADY_VERIFIED');
export const noAttemptsLeft = () => conflict('no attempts are left for this signer', 'NO_ATTEMPTS_LEFT');
export const noLiveChallenge = () => conflict('there is no live challenge; request a new challenge first', 'NO_LIVE_CHALLENGE');
export const staleNonce = () =>
  conflict('the challenge nonce is expired or has been replaced; request a new challenge and record again', 'STALE_NONCE');
export const tooLarge = (what: string) => new DomainError('payload_too_large', `${what} is too large`, 'PAYLOAD_TOO_LARGE');
export const forensicLimit = () =>
  new DomainError('rate_limited', 'the forensic log of this session is full', 'FORENSIC_LIMIT', 3600);
