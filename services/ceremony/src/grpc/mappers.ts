import type { ceremonyV1 } from '@signet/proto';
import { ACTION_SECONDS, READ_SECONDS } from '../domain/challenge.js';
import type { Reveal } from '../domain/timeline.js';
import { timelineMessage } from '../shared/timeline.message.js';
import type { LiveAck } from '../usecases/append-live.js';
import type { IssuedChallenge } from '../usecases/issue-challenge.js';
import type { LiveStart } from '../usecases/start-live.js';

export function revealOut(r: Reveal): ceremonyV1.Reveal {
  return {
    segment: r.segment,
    colour: r.colour,
    prompt: r.prompt,
    words: r.words,
    action: r.action,
    actionNumber: r.action_number,
    actionCount: r.action_count,
    flashes: r.flashes,
    flashMs: r.flash_ms,
  };
}

/** An upload challenge: everything up front, at most the "recorded" assurance. */
export function challengeOut({ challenge: c, attempt, drawsLeft }: IssuedChallenge): ceremonyV1.Challenge {
  return {
    words: c.words,
    actions: c.actions,
    nonce: c.nonce,
    expiresAt: c.expires_at.toISOString(),
    attempt,
    actionSeconds: ACTION_SECONDS,
    readSeconds: READ_SECONDS,
    timeline: timelineMessage(c.timeline),
    drawsLeft,
    assurance: 'recorded',
  };
}

export function liveStartOut(s: LiveStart): ceremonyV1.LiveStart {
  return {
    nonce: s.challenge.nonce,
    expiresAt: s.challenge.expires_at.toISOString(),
    attempt: s.attempt,
    segmentMs: s.challenge.timeline!.segment_ms,
    segments: s.segments,
    reveal: revealOut(s.reveal),
    drawsLeft: s.drawsLeft,
  };
}

export function liveAckOut(a: LiveAck): ceremonyV1.LiveAck {
  return { seq: a.seq, reveal: a.reveal ? revealOut(a.reveal) : undefined, done: a.done };
}
