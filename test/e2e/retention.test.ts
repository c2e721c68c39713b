/**
 * Biometric retention and erasure through the gateway only (issue #21, docs/privacy.md): the consent
 * states the retention; when it ends (shortened here: one retention day lasts a second), the reference
 * photo and the capture media of a finished transaction are erased, the event log says what (keys
 * hashed), when and why, and the certificate still verifies online and offline. The owner can erase
 * at once (DELETE …/biometrics); another account gets 404, a pending transaction 409, a second call 204.
 */
import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../harness/accounts.js';
import { eventually, infra, startServices } from '../harness/services.js';
import { createTransaction, send } from '../support/ceremony-helpers.js';
import { tinyPdf } from '../fixtures/ceremony-media.js';
import { makeGenuineCapture, type ServerTimeline } from '../../services/biometrics/test/corpus/make-corpus.js';

type Actions = NonNullable<Parameters<typeof makeGenuineCapture>[1]>;
type LogEvent = { type: string; at: string; actor: string; detail: string };

const root = join(import.meta.dirname, '../..');
const SEED = 'signature-e2e-seed-v1';
/** 30 retention days of one second each: the default period, shortened. */
const DAY_SECONDS = 1;

function signetVerify(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--conditions=@signet/source', '--import', 'tsx', join(root, 'packages/verify/src/cli.ts'), ...args],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

describe('biometric retention and erasure', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  let dir: string;
  const ip = { 'x-forwarded-for': '10.78.0.1' };
  const detail = async (id: number, key = acct.apiKey) =>
    send(stack.gatewayUrl, 'GET', `/api/transactions/${id}`, { headers: { 'x-api-key': key } });
  const erase = (id: number | string, key = acct.apiKey) =>
    send(stack.gatewayUrl, 'DELETE', `/api/transactions/${id}/biometrics`, { headers: { 'x-api-key': key } });
  const eventsOf = async (id: number): Promise<LogEvent[]> => (await detail(id)).body.events as LogEvent[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'signet-retention-e2e-'));
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'biometrics', 'ledger', 'gateway'], {
      env: { CHALLENGE_TEST_SEED: SEED, BIOMETRIC_RETENTION_DAY_SECONDS: String(DAY_SECONDS), ERASURE_INTERVAL_MS: '1000' },
    });
    acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { orgName: 'Retention Ltd', tag: 'retention' });
  }, 300_000);
  afterAll(async () => {
    await stack?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('erases at once for the owner: 409 while pending, 404 for another account, 204 again without a second erasure', async () => {
    const tx = await createTransaction(stack.gatewayUrl, acct, 'Grace Hopper', stack.env.TRANSACTION_ADDR);
    // The detail shows the retention: no erasure date while pending, nothing erased.
    const before = (await detail(tx.id)).body;
    expect(before).toMatchObject({ retention_days: 30, biometrics_delete_after: null });
    expect(before).not.toHaveProperty('biometrics_erased_at');
    const pending = await erase(tx.id);
    expect(pending.status).toBe(409);
    expect(pending.body.detail).toMatch(/pending|created/);
    const cancelledAt = Date.now();
    expect(
      (await send(stack.gatewayUrl, 'POST', `/api/transactions/${tx.id}/cancel`, { headers: { 'x-api-key': acct.apiKey } }))
        .status,
    ).toBe(200);
    // Ended: due 30 (one-second) days after the end, not yet erased.
    const ended = (await detail(tx.id)).body as { retention_days: number; biometrics_delete_after: string };
    expect(ended.retention_days).toBe(30);
    expect(ended.biometrics_delete_after).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const due = Date.parse(ended.biometrics_delete_after) - cancelledAt;
    expect(due).toBeGreaterThanOrEqual(30 * DAY_SECONDS * 1000 - 2000);
    expect(due).toBeLessThanOrEqual(30 * DAY_SECONDS * 1000 + 10_000);
    expect(ended).not.toHaveProperty('biometrics_erased_at');

    const other = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { orgName: 'Other Ltd', tag: 'retention-other' });
    expect((await erase(tx.id, other.apiKey)).status).toBe(404);
    expect((await erase('not-an-id')).status).toBe(404);
    expect((await erase(99_999_999)).status).toBe(404);
    expect((await eventsOf(tx.id)).some((e) => e.type === 'biometrics_erased')).toBe(false);

    const first = await erase(tx.id);
    expect(first.status).toBe(204);
    const afterErase = (await detail(tx.id)).body as {
      biometrics_delete_after: string;
      biometrics_erased_at?: string;
      events: LogEvent[];
    };
    const erased = afterErase.events.filter((e) => e.type === 'biometrics_erased');
    expect(erased).toHaveLength(1);
    expect(erased[0]).toMatchObject({ actor: 'sender' });
    // Erased before its due date: the time it was, the due date unchanged.
    expect(Math.abs(Date.parse(afterErase.biometrics_erased_at ?? '') - Date.parse(erased[0]!.at))).toBeLessThan(1000);
    expect(afterErase.biometrics_delete_after).toBe(ended.biometrics_delete_after);
    expect(erased[0]!.detail).toMatch(/^reference photo \(key sha256 [0-9a-f]{64}\); reason sender$/);

    const again = await erase(tx.id);
    expect(again.status).toBe(204);
    expect((await eventsOf(tx.id)).filter((e) => e.type === 'biometrics_erased')).toHaveLength(1);
  }, 120_000);

  it('erases a signed transaction’s media when its retention ends; the certificate still verifies', async () => {
    const pdf = tinyPdf(`Signet retention ${randomUUID()}`);
    const sha = createHash('sha256').update(pdf).digest('hex');
    const { reference } = await makeGenuineCapture(join(dir, 'ref'), null);
    const created = await send(stack.gatewayUrl, 'POST', '/api/transactions', {
      headers: { 'x-api-key': acct.apiKey },
      parts: [
        { name: 'signer_name', value: 'Ada Lovelace' },
        { name: 'signer_email', value: `ada-${randomUUID().slice(0, 8)}@example.com` },
        // The single upload below proves only "recorded"; the API requires live unless told otherwise.
        { name: 'required_assurance', value: 'recorded' },
        { name: 'document', filename: 'Agreement.pdf', contentType: 'application/pdf', data: pdf },
        { name: 'reference', filename: 'reference.jpg', contentType: 'image/jpeg', data: readFileSync(reference) },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
    const { id, token, reference: certRef } = created.body as { id: number; token: string; reference: string };

    // The consent states the period's actual length.
    const summary = await send(stack.gatewayUrl, 'GET', `/api/sign/${token}/summary`, { headers: ip });
    expect(summary.body.consent_text).toContain('for 30 days after the signing ends');
    const consent = await send(stack.gatewayUrl, 'POST', `/api/sign/${token}/consent`, {
      headers: ip,
      json: { consent_text_version: summary.body.consent_text_version },
    });
    expect(consent.status).toBeLessThan(300);
    const challenge = await send(stack.gatewayUrl, 'GET', `/api/sign/${token}/challenge`, { headers: ip });
    expect(challenge.status).toBe(200);
    const { actions, nonce, words, timeline } = challenge.body as {
      actions: Actions;
      nonce: string;
      words: string[];
      timeline: ServerTimeline;
    };
    const media = await makeGenuineCapture(join(dir, 'capture'), actions, { words, serverTimeline: timeline });
    const cap = await send(stack.gatewayUrl, 'POST', `/api/sign/${token}/capture`, {
      headers: ip,
      parts: [
        { name: 'nonce', value: nonce },
        { name: 'video', filename: 'video.webm', contentType: 'video/webm', data: readFileSync(media.video!) },
        { name: 'frame', filename: 'frame.jpg', contentType: 'image/jpeg', data: readFileSync(media.finalFrame!) },
      ],
    });
    expect(cap.status, JSON.stringify(cap.body)).toBeLessThan(300);

    const done = await eventually(
      async () => {
        const r = await detail(id);
        const failed = (r.body.events as LogEvent[]).some((e) => e.type === 'verdict_failed');
        return r.body.status === 'ledger_issued' || r.body.status === 'failed' || failed ? r.body : undefined;
      },
      240_000,
      1000,
    );
    expect(done.status, `the verdict did not pass: ${JSON.stringify(done)}`).toBe('ledger_issued');

    // 30 one-second days after the end: the reference photo, then the capture media (one video, one frame).
    const log = await eventually(
      async () => {
        const events = await eventsOf(id);
        return events.some((e) => e.type === 'media_erased') ? events : undefined;
      },
      120_000,
      1000,
    );
    const ref = log.filter((e) => e.type === 'biometrics_erased');
    expect(ref).toHaveLength(1);
    expect(ref[0]).toMatchObject({ actor: 'system' });
    expect(ref[0]!.detail).toMatch(/^reference photo \(key sha256 [0-9a-f]{64}\); reason retention$/);
    const issuedAt = Date.parse(log.find((e) => e.type === 'status_changed' && e.detail.endsWith('ledger_issued'))!.at);
    expect(Date.parse(ref[0]!.at) - issuedAt).toBeGreaterThanOrEqual(30 * DAY_SECONDS * 1000);
    // The detail says when it was due (30 days after the end) and when it was erased.
    const erasedDetail = (await detail(id)).body as {
      retention_days: number;
      biometrics_delete_after: string;
      biometrics_erased_at: string;
    };
    expect(erasedDetail.retention_days).toBe(30);
    expect(Date.parse(erasedDetail.biometrics_delete_after) - issuedAt).toBeGreaterThanOrEqual(30 * DAY_SECONDS * 1000);
    expect(Date.parse(erasedDetail.biometrics_erased_at)).toBeGreaterThanOrEqual(
      Date.parse(erasedDetail.biometrics_delete_after),
    );
    const mediaErased = log.filter((e) => e.type === 'media_erased');
    expect(mediaErased).toHaveLength(1);
    expect(mediaErased[0]!.detail).toMatch(
      /^signer 0: 2 capture object\(s\) \(key sha256 [0-9a-f]{64}, [0-9a-f]{64}\); reason retention$/,
    );
    // The owner asking again changes nothing.
    expect((await erase(id)).status).toBe(204);
    expect((await eventsOf(id)).filter((e) => e.type.endsWith('_erased'))).toHaveLength(2);

    // The certificate commits to hashes, not media: it still verifies online and offline.
    const verified = await send(stack.gatewayUrl, 'GET', `/api/verify/${certRef}/${sha.slice(0, 16)}`);
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ valid: true, reference: certRef, signer_name: 'Ada Lovelace' });
    const bundle = await fetch(`${stack.gatewayUrl}/api/ledger/proof/${certRef}?hash=${sha.slice(0, 16)}&download=1`);
    expect(bundle.status).toBe(200);
    const key = (await (await fetch(`${stack.gatewayUrl}/api/ledger/public-key`)).json()) as { verifier_key: string };
    writeFileSync(join(dir, 'cert.json'), Buffer.from(await bundle.arrayBuffer()));
    writeFileSync(join(dir, 'document.pdf'), pdf);
    const ok = await signetVerify([join(dir, 'cert.json'), join(dir, 'document.pdf'), '--key', key.verifier_key]);
    expect(ok.out).toContain(`VALID certificate ${certRef}`);
    expect(ok.code).toBe(0);

    // Counted by reason.
    const tm = await (await fetch(`http://127.0.0.1:${stack.opsPorts.transaction}/metrics`)).text();
    expect(tm).toMatch(/signet_transaction_biometric_erasures_total\{[^}]*reason="retention"[^}]*\} [1-9]/);
    expect(tm).toMatch(/signet_transaction_biometric_erasures_total\{[^}]*reason="sender"[^}]*\} [1-9]/);
    const cm = await (await fetch(`http://127.0.0.1:${stack.opsPorts.ceremony}/metrics`)).text();
    expect(cm).toMatch(/signet_ceremony_biometric_objects_erased_total\{[^}]*reason="retention"[^}]*\} 2/);
  }, 600_000);
});
