import { describe, expect, it } from 'vitest';
import { CHALLENGE_TTL_MS, MAX_DRAWS_PER_ATTEMPT } from '../domain/challenge.js';
import { webauthnChallenge } from '../domain/webauthn.js';
import { fakeClock, fakeMetrics, fakeSessions, fakeSigningTokens, sessionRecord, signingContext } from '../../test/fakes.js';
import { getWebauthnOptions } from './get-webauthn-options.js';
import { issueChallenge } from './issue-challenge.js';
import { startLive } from './start-live.js';

function setup() {
  const clock = fakeClock();
  const m = fakeMetrics();
  const sessions = fakeSessions(sessionRecord());
  const pending: { nonce: string; challenge: string; salt: string }[] = [];
  const deps = {
    signingTokens: fakeSigningTokens(signingContext()),
    sessions,
    metrics: m.metrics,
    onOutbox: () => undefined,
    now: clock.now,
    webauthn: { rpId: 'localhost', rpName: 'Signet', origin: 'http://localhost' },
    credentials: { credentialsOf: async () => [] },
    webauthnChallenges: {
      put: async (_id: string, p: { nonce: string; challenge: string; salt: string }) => void pending.push(p),
    },
  };
  return { deps, sessions, clock, pending, ...m };
}

/** The options' challenge is the commitment to the document and this nonce (with the stored salt). */
const commitsTo = (p: { nonce: string; challenge: string; salt: string }, nonce: string) =>
  p.nonce === nonce && webauthnChallenge(signingContext().documentSha256, nonce, p.salt).base64url === p.challenge;

describe('WebAuthn options: the confirmation comes before the recording', () => {
  it('draws a live challenge when there is none, and the live start then streams that one with its clock restarted', async () => {
    const t = setup();
    const o = await getWebauthnOptions(t.deps, 'tok');
    expect(o.kind).toBe('registration');
    const drawn = t.sessions.current.challenge!;
    expect(drawn).toMatchObject({ mode: 'live', live_started_at: null });
    expect(t.sessions.current.draws).toBe(1);
    expect(commitsTo(t.pending[0]!, drawn.nonce)).toBe(true);

    // The signer takes 100 s over the confirmation: the recording still gets its full two minutes.
    t.clock.advance(100_000);
    const live = await startLive(t.deps, 'tok');
    expect(live.challenge.nonce).toBe(drawn.nonce);
    expect(live.drawsLeft).toBe(MAX_DRAWS_PER_ATTEMPT - 1);
    expect(t.sessions.current.draws).toBe(1);
    expect(t.sessions.current.challenge!.expires_at.getTime()).toBe(t.clock.now() + CHALLENGE_TTL_MS);
  });

  it('asked again before the recording, confirms the same challenge without another draw', async () => {
    const t = setup();
    await getWebauthnOptions(t.deps, 'tok');
    await getWebauthnOptions(t.deps, 'tok');
    expect(t.sessions.current.draws).toBe(1);
    expect(t.pending[0]!.nonce).toBe(t.pending[1]!.nonce);
  });

  it('never confirms a stream already begun (an interrupted recording): a new live challenge is drawn for the next', async () => {
    const t = setup();
    const interrupted = await startLive(t.deps, 'tok');
    await getWebauthnOptions(t.deps, 'tok');
    const next = t.sessions.current.challenge!;
    expect(next.nonce).not.toBe(interrupted.challenge.nonce);
    expect(commitsTo(t.pending[0]!, next.nonce)).toBe(true);
    expect((await startLive(t.deps, 'tok')).challenge.nonce).toBe(next.nonce);
    expect(t.sessions.current.draws).toBe(2);
  });

  it('confirms an unexpired single-upload challenge (API clients), and draws anew once it expired', async () => {
    const t = setup();
    const up = await issueChallenge(t.deps, 'tok');
    await getWebauthnOptions(t.deps, 'tok');
    expect(t.pending[0]!.nonce).toBe(up.challenge.nonce);
    t.clock.advance(CHALLENGE_TTL_MS);
    await getWebauthnOptions(t.deps, 'tok');
    expect(t.pending[1]!.nonce).not.toBe(up.challenge.nonce);
    expect(t.sessions.current.challenge!.mode).toBe('live');
  });

  it('refuses before consent, drawing nothing', async () => {
    const t = setup();
    t.sessions.current.consent = null;
    await expect(getWebauthnOptions(t.deps, 'tok')).rejects.toMatchObject({ kind: 'conflict', reason: 'CONSENT_REQUIRED' });
    expect(t.sessions.current.draws).toBe(0);
  });
});
