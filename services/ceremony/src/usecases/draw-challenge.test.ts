import { describe, expect, it } from 'vitest';
import { eventsV1 } from '@signet/proto';
import { CHALLENGE_TTL_MS, MAX_DRAWS_PER_ATTEMPT } from '../domain/challenge.js';
import type { Session } from '../domain/session.js';
import { fakeClock, fakeMetrics, fakeSessions, fakeSigningTokens, sessionRecord, signingContext } from '../../test/fakes.js';
import { issueChallenge } from './issue-challenge.js';
import { startLive } from './start-live.js';

function setup(over: Partial<Session> = {}, seed?: string, ctx = signingContext()) {
  const clock = fakeClock();
  const m = fakeMetrics();
  const sessions = fakeSessions(sessionRecord(over));
  let kicked = 0;
  const deps = {
    signingTokens: fakeSigningTokens(ctx),
    sessions,
    challengeTestSeed: seed,
    metrics: m.metrics,
    onOutbox: () => void kicked++,
    now: clock.now,
  };
  return { deps, sessions, clock, ...m, kicked: () => kicked };
}

describe('drawing challenges', () => {
  it('offers the single upload only where the sender accepts recorded: refused outright otherwise, nothing drawn', async () => {
    for (const required of ['live', 'live+webauthn', 'something-new']) {
      const t = setup({}, undefined, signingContext({ requiredAssurance: required }));
      await expect(issueChallenge(t.deps, 'tok')).rejects.toMatchObject({ kind: 'conflict', reason: 'LIVE_REQUIRED' });
      expect(t.sessions.current).toMatchObject({ draws: 0, challenge: null });
      expect(t.counted('belowRequired', { offered: 'upload' })).toBe(1);
      // the live recording is offered
      expect((await startLive(t.deps, 'tok')).drawsLeft).toBe(MAX_DRAWS_PER_ATTEMPT - 1);
    }
    const allowed = setup({}, undefined, signingContext({ requiredAssurance: 'recorded' }));
    expect((await issueChallenge(allowed.deps, 'tok')).challenge.mode).toBe('upload');
  });

  it('serves the upload challenge again while it has time left, without counting a draw', async () => {
    const t = setup();
    const a = await issueChallenge(t.deps, 'tok');
    expect(a).toMatchObject({ attempt: 1, drawsLeft: MAX_DRAWS_PER_ATTEMPT - 1 });
    const b = await issueChallenge(t.deps, 'tok');
    expect(b.challenge.nonce).toBe(a.challenge.nonce);
    expect(b.drawsLeft).toBe(MAX_DRAWS_PER_ATTEMPT - 1);
    expect(t.counted('challenges', { kind: 'reused' })).toBe(1);
    // Nearly expired: a new one is drawn, and counted.
    t.clock.advance(CHALLENGE_TTL_MS - 30_000);
    const c = await issueChallenge(t.deps, 'tok');
    expect(c.challenge.nonce).not.toBe(a.challenge.nonce);
    expect(c.drawsLeft).toBe(MAX_DRAWS_PER_ATTEMPT - 2);
    expect(t.sessions.current.draws).toBe(2);
  });

  it('never serves a live challenge again once its stream began', async () => {
    const t = setup();
    const a = await startLive(t.deps, 'tok');
    expect(a.reveal.segment).toBe(0);
    expect(t.sessions.current.challenge?.live_started_at?.getTime()).toBe(t.clock.now());
    const b = await startLive(t.deps, 'tok');
    expect(b.challenge.nonce).not.toBe(a.challenge.nonce);
    expect(t.sessions.current.draws).toBe(2);
  });

  it(`spends the attempt when a ${MAX_DRAWS_PER_ATTEMPT + 1}th challenge is asked for, as a failed capture without media`, async () => {
    const t = setup();
    for (let i = 0; i < MAX_DRAWS_PER_ATTEMPT; i++) await startLive(t.deps, 'tok');
    const last = t.sessions.current.challenge!;
    await expect(startLive(t.deps, 'tok')).rejects.toMatchObject({ kind: 'conflict', reason: 'ATTEMPT_SPENT' });
    const s = t.sessions.current;
    expect(s).toMatchObject({ attempt: 1, draws: 0, challenge: null });
    expect(s.captures).toHaveLength(1);
    expect(s.captures[0]).toMatchObject({
      attempt: 1,
      nonce: last.nonce,
      outcome: 'FAIL',
      forfeited: true,
      failed_checks: ['challenge_redraws'],
      video_key: '',
    });
    const ev = eventsV1.AttemptForfeited.decode(t.sessions.outbox[0]!.payload);
    expect(ev).toMatchObject({ transactionId: 42, signerIndex: 0, attempt: 1, reason: 'challenge_redraws' });
    expect(ev.captureId).toBe(s.captures[0]!.capture_id);
    expect(t.kicked()).toBe(1);
  });

  it('refuses before consent and while the last capture is in review, changing nothing', async () => {
    const noConsent = setup({ consent: null });
    await expect(issueChallenge(noConsent.deps, 'tok')).rejects.toMatchObject({ reason: 'CONSENT_REQUIRED' });
    const inReview = setup({ captures: [{ outcome: null } as Session['captures'][number]], attempt: 1 });
    await expect(issueChallenge(inReview.deps, 'tok')).rejects.toMatchObject({ reason: 'CAPTURE_IN_REVIEW' });
    await expect(issueChallenge(inReview.deps, 'other')).rejects.toMatchObject({ kind: 'not_found' });
    for (const t of [noConsent, inReview]) expect(t.sessions.current.draws).toBe(0);
  });

  it('draws from CHALLENGE_TEST_SEED when it is set: the same session and draw give the same challenge', async () => {
    const seed = 'x'.repeat(16);
    const [a, b, plain] = [setup({}, seed), setup({}, seed), setup()];
    const [ca, cb, cp] = [
      await issueChallenge(a.deps, 'tok'),
      await issueChallenge(b.deps, 'tok'),
      await issueChallenge(plain.deps, 'tok'),
    ];
    expect(ca.challenge.words).toEqual(cb.challenge.words);
    expect(ca.challenge.timeline).toEqual(cb.challenge.timeline);
    // The nonce keeps its fresh salt whatever the seed.
    expect(ca.challenge.nonce).not.toBe(cb.challenge.nonce);
    expect(cp.challenge.words).not.toEqual(ca.challenge.words);
  });
});
