import { randomUUID } from 'node:crypto';
import { keyDigest, mediaKeysOf, withoutMediaKeys } from '../domain/erasure.js';
import { mediaErasedEvent } from '../events/media-erased.publisher.js';
import type { CaptureObjects } from '../store/capture.objects.js';
import type { SessionRepository } from '../store/session.repository.js';
import type { CeremonyDeps } from './deps.js';

export type EraseMediaDeps = Pick<CeremonyDeps, 'now' | 'onOutbox'> & {
  sessions: Pick<SessionRepository, 'claimErasure' | 'completeErasure'>;
  captures: Pick<CaptureObjects, 'erase'>;
  /** Called with the number of objects deleted and the reason, once a session is done. */
  onErased: (objects: number, reason: string) => void;
  /** How long a claim holds; a replica killed mid-erasure leaves it to expire. */
  leaseMs: number;
  /** Tests only: runs between deleting the objects and marking the session done (a crash there). */
  afterDelete?: () => Promise<void>;
};

/**
 * Erases one session's capture videos and frames: claims it in the store (one replica at a time),
 * deletes its objects (a missing one is no error, so a retry after a crash is harmless), then in one
 * update drops the keys from its capture records (the hashes stay), marks it erased and writes the
 * `ceremony.media.erased` event with the keys hashed. False when another claim holds or it is done.
 */
export async function eraseCaptureMedia(deps: EraseMediaDeps, sessionId: string): Promise<boolean> {
  const lease = randomUUID();
  const now = deps.now();
  const s = await deps.sessions.claimErasure(sessionId, lease, new Date(now), new Date(now + deps.leaseMs));
  if (!s) return false;
  const keys = mediaKeysOf(s.captures);
  await deps.captures.erase(keys);
  await deps.afterDelete?.();
  const reason = s.erasure?.reason ?? 'retention';
  const event = mediaErasedEvent(s.transaction_id, s.signer_index, reason, keys.map(keyDigest));
  const done = await deps.sessions.completeErasure(sessionId, lease, new Date(deps.now()), withoutMediaKeys(s.captures), event);
  if (!done) return false;
  deps.onOutbox();
  deps.onErased(keys.length, reason);
  return true;
}
