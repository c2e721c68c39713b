/**
 * A capture that cannot be analysed for a technical reason is not the signer's failure (issue 30):
 * the biometrics service runs with a deadline no analysis can meet (ANALYSIS_DEADLINE_MS=1, a real
 * missed deadline in the real service), retries each capture on redelivery, and ends it in ERROR;
 * the transaction reopens the ceremony with every attempt left and the page is told no attempt was
 * used. Bounded: a signer's third such capture is charged (FAIL analysis_error), so media made to
 * miss the deadline cannot buy endless tries. Real gateway, transaction, ceremony, biometrics.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Account } from '../harness/accounts.js';
import { eventually, startServices } from '../harness/services.js';
import { makeJpeg, makeWebm } from '../fixtures/ceremony-media.js';
import { createTransaction, send, senderAccount, type CreatedTx } from '../support/ceremony-helpers.js';

type Summary = { step: string; outcome: string | null; attempts_left: number; attempt: number; redo: string[] };

describe('a technical failure of the analysis leaves the signer’s attempts unchanged', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  let tx: CreatedTx;
  const dir = mkdtempSync(join(tmpdir(), 'signet-analysis-error-'));
  let webm: Buffer;
  let jpeg: Buffer;
  const api = (method: string, path: string, init: Parameters<typeof send>[3] = {}) =>
    send(stack.gatewayUrl, method, path, { ...init, headers: { 'x-forwarded-for': '10.78.0.1', ...init.headers } });
  const summary = async () => (await api('GET', `/api/sign/${tx.token}/summary`)).body as Summary;
  const signer = async () => {
    const r = await send(stack.gatewayUrl, 'GET', `/api/transactions/${tx.id}`, { headers: { 'x-api-key': acct.apiKey } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body as {
      signers: { state: string; attempts_left: number }[];
      events: { type: string; actor: string; detail: string }[];
    };
  };
  /** One single-upload capture of a fresh challenge, then the outcome the page is given. */
  const captureAndWait = async (): Promise<Summary> => {
    const ch = await api('GET', `/api/sign/${tx.token}/challenge`);
    expect(ch.status, JSON.stringify(ch.body)).toBe(200);
    const r = await api('POST', `/api/sign/${tx.token}/capture`, {
      parts: [
        { name: 'nonce', value: (ch.body as { nonce: string }).nonce },
        { name: 'video', filename: 'video.webm', contentType: 'video/webm', data: webm },
        { name: 'frame', filename: 'frame.jpg', contentType: 'image/jpeg', data: jpeg },
      ],
    });
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    // Three deliveries with 1 s and 2 s of backoff between them, then the verdict through the outbox.
    return eventually(async () => {
      const s = await summary();
      return s.step !== 'verifying' && s.outcome ? s : undefined;
    }, 60_000);
  };

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'biometrics', 'gateway'], {
      env: { ANALYSIS_DEADLINE_MS: '1' },
    });
    acct = await senderAccount(stack.gatewayUrl);
    tx = await createTransaction(stack.gatewayUrl, acct, 'Ada Lovelace', stack.env.TRANSACTION_ADDR);
    webm = makeWebm(dir, 3);
    jpeg = makeJpeg(dir);
    expect((await api('POST', `/api/sign/${tx.token}/consent`, { json: { consent_text_version: 'consent-v1' } })).status).toBe(
      201,
    );
  }, 240_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('ends in ERROR twice without charging an attempt, then charges the third', async () => {
    const before = (await summary()).attempts_left;
    expect(before).toBeGreaterThanOrEqual(2);

    for (const round of [1, 2]) {
      const s = await captureAndWait();
      // The ceremony is open again, the page says the recording could not be checked, nothing was charged.
      expect(s, `round ${round}`).toMatchObject({ step: 'challenge', outcome: 'error', attempts_left: before, redo: [] });
      expect((await signer()).signers[0]).toMatchObject({ state: 'consent_accepted', attempts_left: before });
    }
    const errors = (await signer()).events.filter((e) => e.type === 'verdict_error');
    expect(errors).toHaveLength(2);
    for (const e of errors) expect(e).toMatchObject({ actor: 'biometrics', detail: expect.stringContaining('no attempt used') });

    // The bound: a signer's captures that never analyse cannot go on for free.
    const third = await captureAndWait();
    expect(third).toMatchObject({ outcome: 'fail', attempts_left: before - 1, redo: ['quality'] });

    // The biometrics service counted each retried and each final failure, and the verdicts by outcome.
    const metrics = await (await fetch(`http://127.0.0.1:${stack.opsPorts.biometrics}/metrics`)).text();
    const value = (name: string, label: string) =>
      Number(
        metrics
          .split('\n')
          .find((l) => l.startsWith(`${name}{`) && l.includes(label))
          ?.split(' ')
          .at(-1) ?? NaN,
      );
    expect(value('signet_biometrics_verdicts_total', 'outcome="ERROR"')).toBe(2);
    expect(value('signet_biometrics_verdicts_total', 'outcome="FAIL"')).toBe(1);
    expect(value('signet_biometrics_analysis_errors_total', 'final="true"')).toBe(3);
    expect(value('signet_biometrics_analysis_errors_total', 'final="false"')).toBe(6);
  }, 240_000);
});
