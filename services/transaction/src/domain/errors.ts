import { conflict, DomainError, invalid, notFound, rateLimited } from '@signet/kit';

/** Typed errors of the transaction domain; the kit maps them to gRPC statuses once. */
export const fieldInvalid = (field: string, message: string) => invalid(`${field}: ${message}`, 'INVALID_FIELD');
export const documentTooLarge = (maxBytes: number) =>
  new DomainError(
    'payload_too_large',
    `document: must be at most ${Math.floor(maxBytes / (1024 * 1024))} MB`,
    'PAYLOAD_TOO_LARGE',
  );
export const transactionNotFound = () => notFound('no such transaction');
export const signingTokenNotFound = () => notFound('no such signing link, or it no longer works');
export const notPending = (action: string, status: string) =>
  conflict(`cannot ${action} a transaction that is ${status}`, 'TRANSACTION_NOT_PENDING');
export const resendTooSoon = (retryAfterSeconds: number) =>
  rateLimited('the signing link of this transaction was re-sent less than a minute ago', retryAfterSeconds);
export const idempotencyMismatch = () =>
  conflict('Idempotency-Key was already used with a different request body', 'IDEMPOTENCY_KEY_REUSED');
export const idempotencyInProgress = () =>
  conflict('a request with this Idempotency-Key is still in progress; retry later', 'IDEMPOTENCY_KEY_IN_PROGRESS');
export const notPendingErasure = (status: string) =>
  conflict(
    `cannot erase the biometric data of a transaction that is ${status}: it is still needed to verify the signer; cancel it first`,
    'TRANSACTION_PENDING',
  );
/** test/complete answers one outcome: once every signer has passed there is nothing left to complete. */
export const testAlreadyCompleted = (status: string) =>
  conflict(
    `this test transaction already has its outcome (verified, ${status}); it cannot be completed again`,
    'TEST_ALREADY_COMPLETED',
  );
export const signerFinished = (state: string) =>
  conflict(`this signer has already finished (${state}) and can no longer decline`, 'SIGNER_FINISHED');
/** The link ended with its transaction: NOT_FOUND with reason SIGNING_LINK_ENDED, so the ceremony passes the detail on. */
export const signingLinkEnded = (why: 'declined' | 'expired') =>
  new DomainError(
    'not_found',
    why === 'expired'
      ? 'this signing link has expired: ask the sender for a new request'
      : 'this signing request was declined: the link no longer works',
    'SIGNING_LINK_ENDED',
  );
/** A signer's field values are taken before their capture only: afterwards the ceremony has bound the document. */
export const fieldsClosed = (state: string) =>
  conflict(`this signer's fields can no longer be changed (${state}): they are filled before the recording`, 'FIELDS_CLOSED');
