import { createHash } from 'node:crypto';
import type { CaptureRecord } from './session.js';

/** An object key as events and logs show it: its SHA-256 (docs/privacy.md). */
export const keyDigest = (key: string): string => createHash('sha256').update(key).digest('hex');

/** The capture objects a session's records name (forfeited attempts name none). */
export const mediaKeysOf = (captures: Pick<CaptureRecord, 'video_key' | 'frame_key'>[]): string[] =>
  captures.flatMap((c) => [c.video_key, c.frame_key]).filter((k) => !!k);

/** The records once their media are erased: hashes, sizes and outcomes stay (the certificate commits to the hashes), keys go. */
export const withoutMediaKeys = (captures: CaptureRecord[]): CaptureRecord[] =>
  captures.map((c) => ({ ...c, video_key: '', frame_key: '' }));

/** A request older than this whose objects are still stored means the erasure job failed (reconciliation, alert). */
export const ERASURE_OVERDUE_MS = 3600_000;
