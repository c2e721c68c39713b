import { createHash, randomBytes } from 'node:crypto';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { cryptoDraw, drawTimeline, type Draw, type Timeline } from './timeline.js';

export const ACTIONS = ['turn_left', 'turn_right', 'blink', 'smile', 'look_up'] as const;
export type Action = (typeof ACTIONS)[number];

export const WORD_COUNT = 4;
export const ACTION_COUNT = 3;
export const CHALLENGE_TTL_MS = 2 * 60 * 1000;
/** A live challenge with at least this long left is served again instead of a new one. */
export const CHALLENGE_REUSE_MIN_MS = 60 * 1000;
/** New challenges one attempt may draw; asking for another spends the attempt. */
export const MAX_DRAWS_PER_ATTEMPT = 3;
/** Seconds the page gives each action (its countdown); the reading window comes first. */
export const ACTION_SECONDS = 3;
/** Seconds the page shows the words to read aloud, from the start of the recording. */
export const READ_SECONDS = 6;

export type ChallengeRecord = {
  words: string[];
  actions: Action[];
  nonce: string;
  /** The fresh randomness in the nonce, kept so anyone can recompute the binding. */
  salt: string;
  issued_at: Date;
  expires_at: Date;
  /** Absent on challenges issued before timelines existed. */
  timeline?: Timeline;
  /** upload: the whole timeline was handed out; live: revealed segment by segment. */
  mode?: 'upload' | 'live';
  /** When the live start was answered (the origin of the chunks' arrival times). */
  live_started_at?: Date | null;
};

/** Four distinct words drawn uniformly from the BIP-39 English list (2048 words, 11 bits each). */
export function randomWords(n = WORD_COUNT, draw: Draw = cryptoDraw): string[] {
  const out = new Set<string>();
  while (out.size < n) out.add(wordlist[draw(wordlist.length)]!);
  return [...out];
}

/** A random sequence of actions with no action twice in a row. */
export function randomActions(n = ACTION_COUNT, draw: Draw = cryptoDraw): Action[] {
  const out: Action[] = [];
  while (out.length < n) {
    const a = ACTIONS[draw(ACTIONS.length)]!;
    if (a !== out.at(-1)) out.push(a);
  }
  return out;
}

/**
 * The ceremony nonce binds a challenge to one document and one signer:
 * SHA-256("signet-ceremony-nonce-v1" | document SHA-256 | transaction:signer | signer email | salt).
 * It is recorded with the capture, so a capture cannot be replayed onto another document.
 */
export function deriveNonce(p: {
  documentSha256: string;
  transactionId: number;
  signerIndex: number;
  signerEmail: string;
  salt: string;
}) {
  return createHash('sha256')
    .update(
      [
        'signet-ceremony-nonce-v1',
        p.documentSha256,
        `${p.transactionId}:${p.signerIndex}`,
        p.signerEmail.toLowerCase(),
        p.salt,
      ].join('|'),
    )
    .digest('hex');
}

/** What a challenge asks: the words, the actions and the timeline, from one source of randomness. */
export function drawContent(draw: Draw = cryptoDraw): { words: string[]; actions: Action[]; timeline: Timeline } {
  const words = randomWords(WORD_COUNT, draw);
  const actions = randomActions(ACTION_COUNT, draw);
  return { words, actions, timeline: drawTimeline(actions, draw) };
}

export function newChallenge(
  p: { documentSha256: string; transactionId: number; signerIndex: number; signerEmail: string },
  mode: 'upload' | 'live',
  draw: Draw = cryptoDraw,
  now = new Date(),
): ChallengeRecord {
  const salt = randomBytes(32).toString('hex');
  return {
    ...drawContent(draw),
    nonce: deriveNonce({ ...p, salt }),
    salt,
    issued_at: now,
    expires_at: new Date(now.getTime() + CHALLENGE_TTL_MS),
    mode,
    live_started_at: null,
  };
}

/** A live challenge's expiry counted from the start of its stream: a WebAuthn step before the recording takes nothing from it. */
export function startLiveClock(at: Date): Date {
  return new Date(at.getTime() + CHALLENGE_TTL_MS);
}

/**
 * The live challenge is served again while it has time left for a recording and an upload, so a
 * signer (or an attacker holding the link) cannot draw challenge after challenge until an easy
 * sequence comes up; a consumed, expired or nearly expired one is replaced.
 */
export function reusableChallenge(
  current: ChallengeRecord | null | undefined,
  mode: 'upload' | 'live',
  now = new Date(),
): ChallengeRecord | null {
  if (!current || (current.mode ?? 'upload') !== mode) return null;
  if (mode === 'live') {
    // A live challenge whose stream has begun has revealed part of itself: it is never served again.
    if (current.live_started_at) return null;
    // One not begun has revealed nothing (only its nonce, e.g. to a WebAuthn step taken before the
    // recording), and its clock restarts when the stream begins (startLiveClock): served while unexpired.
    return current.expires_at.getTime() > now.getTime() ? current : null;
  }
  return current.expires_at.getTime() - now.getTime() >= CHALLENGE_REUSE_MIN_MS ? current : null;
}
