/**
 * A recorded-path capture submitted through the gateway when rendering it takes longer than a
 * challenge lives (2 minutes on a loaded machine): with CHALLENGE_TEST_SEED (tests only) the first
 * challenge is drawn here exactly as the ceremony draws it (session `<id>:0`, attempt 1, draw 0) and
 * rendered before it is asked for; should the ceremony draw something else, the capture is rendered
 * for what it drew, up to three draws. The signer must have consented.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { drawChallenge, makeGenuineCapture, type ServerTimeline } from '../../services/biometrics/test/corpus/make-corpus.js';
import { send, type Reply } from './http.js';

type Actions = NonNullable<Parameters<typeof makeGenuineCapture>[1]>;

/** JSON with object keys sorted, to compare a challenge as served with one drawn here. */
export const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : x,
  );

/** Sends one request to the gateway (any of several, for tests that kill one). */
export type Gateway = (method: string, path: string, init: Parameters<typeof send>[3]) => Promise<Reply>;

export async function submitPredictedCapture(o: {
  gateway: Gateway;
  /** The transaction's id and the signer's token. */
  id: number;
  token: string;
  /** The signer's index in the transaction (its ceremony session is `<id>:<signer>`); default 0. */
  signer?: number;
  seed: string;
  dir: string;
  headers: Record<string, string>;
}): Promise<Reply> {
  const predicted = drawChallenge(`${o.id}:${o.signer ?? 0}|1|0`, undefined, o.seed);
  const ready = await makeGenuineCapture(join(o.dir, 'capture-predicted'), predicted.actions, {
    words: predicted.words,
    serverTimeline: predicted.timeline,
  });
  let cap: Reply | undefined;
  for (let i = 0; i < 3 && (!cap || cap.status === 409); i++) {
    const challenge = await o.gateway('GET', `/api/sign/${o.token}/challenge`, { headers: o.headers });
    if (challenge.status !== 200) throw new Error(`challenge → ${challenge.status} ${challenge.text}`);
    const { actions, nonce, words, timeline } = challenge.body as {
      actions: Actions;
      nonce: string;
      words: string[];
      timeline: ServerTimeline;
    };
    const same = canonical([actions, words, timeline]) === canonical([predicted.actions, predicted.words, predicted.timeline]);
    // (the log says which was used, for whoever reads a failure)
    console.info(`challenge draw ${i}: ${same ? 'as predicted, rendered beforehand' : 'not as predicted, rendered now'}`);
    const media = same
      ? ready
      : await makeGenuineCapture(join(o.dir, `capture-${i}`), actions, { words, serverTimeline: timeline });
    cap = await o.gateway('POST', `/api/sign/${o.token}/capture`, {
      headers: o.headers,
      parts: [
        { name: 'nonce', value: nonce },
        { name: 'video', filename: 'video.webm', contentType: 'video/webm', data: readFileSync(media.video!) },
        { name: 'frame', filename: 'frame.jpg', contentType: 'image/jpeg', data: readFileSync(media.finalFrame!) },
      ],
    });
  }
  return cap!;
}

/**
 * The signer's part after the link: consent to the consent text the summary names, then the predicted
 * capture. Returns the capture's reply; the consent must succeed.
 */
export async function consentAndCapture(o: Parameters<typeof submitPredictedCapture>[0]): Promise<Reply> {
  const summary = await o.gateway('GET', `/api/sign/${o.token}/summary`, { headers: o.headers });
  if (summary.status !== 200) throw new Error(`summary → ${summary.status} ${summary.text}`);
  const consent = await o.gateway('POST', `/api/sign/${o.token}/consent`, {
    headers: o.headers,
    json: { consent_text_version: (summary.body as { consent_text_version: string }).consent_text_version },
  });
  if (consent.status >= 300) throw new Error(`consent → ${consent.status} ${consent.text}`);
  return submitPredictedCapture(o);
}

/**
 * The transaction's detail once the ceremony has ended one way or the other: sealed (`ledger_issued`),
 * failed, or its verdict failed (so a failed verdict is reported at once, not as a timeout).
 */
export async function awaitOutcome(
  gateway: Gateway,
  id: number,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<Record<string, any>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await gateway('GET', `/api/transactions/${id}`, { headers });
    const body = r.body as { status?: string; events?: { type: string }[] };
    const verdictFailed = (body.events ?? []).some((e) => e.type === 'verdict_failed');
    if (body.status === 'ledger_issued' || body.status === 'failed' || verdictFailed) return r.body;
    if (Date.now() > until) throw new Error(`transaction ${id} still ${body.status} after ${timeoutMs} ms`);
    await new Promise((res) => setTimeout(res, 1000));
  }
}
