/**
 * Deleting a whole finished transaction, and the legal hold (issue 21 item 3, docs/privacy.md), on the
 * whole stack, through the public API only. After a real ceremony and the sealed signed PDF, the owner
 * deletes the transaction while the ledger and the ceremony are down (their consumers killed): the
 * answer is 204 and the transaction is gone from the API at once; once both run again the ledger
 * finishes its part — the completion mail's download link answers 404 — and /api/verify still answers
 * for the certificate. Another account gets 404, a pending transaction 409 with nothing changed, a held
 * one 409 until the hold is released. The buckets and stores are checked by the integration tests
 * (services/{transaction,ledger,ceremony}/test/*deletion*.int.test.ts).
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../harness/accounts.js';
import { eventually, infra, startServices } from '../harness/services.js';
import { createTransaction, send } from '../support/ceremony-helpers.js';
import { tinyPdf } from '../fixtures/ceremony-media.js';
import { makeGenuineCapture } from '../../services/biometrics/test/corpus/make-corpus.js';
import { awaitOutcome, consentAndCapture, type Gateway } from '../support/predicted-capture.js';

type LogEvent = { type: string; at: string; actor: string; detail: string };

const SEED = 'signature-e2e-seed-v1';
describe('deleting a whole transaction, and the legal hold', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  let other: Account;
  let dir: string;
  const ip = { 'x-forwarded-for': '10.79.0.1' };
  const pki = infra().DEV_PKI_DIR ?? '';
  const call = (method: string, path: string, key = acct.apiKey, json?: unknown) =>
    send(stack.gatewayUrl, method, path, { headers: { 'x-api-key': key }, ...(json === undefined ? {} : { json }) });
  const mailpit = infra().MAILPIT_URL;
  const mails = async (query: string) =>
    (
      (await (await fetch(`${mailpit}/api/v1/search?query=${encodeURIComponent(query)}`)).json()) as {
        messages: { ID: string }[] | null;
      }
    ).messages ?? [];
  const textOf = async (id: string) => ((await (await fetch(`${mailpit}/api/v1/message/${id}`)).json()) as { Text: string }).Text;

  beforeAll(async () => {
    if (!infra().TSA_URL || !pki)
      throw new Error('no local TSA: the harness starts one with scripts/tsa.sh (run scripts/install.sh)');
    dir = mkdtempSync(join(tmpdir(), 'signet-deletion-e2e-'));
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'biometrics', 'ledger', 'gateway'], {
      env: {
        CHALLENGE_TEST_SEED: SEED,
        LEDGER_SEAL_CERT: join(pki, 'certs/seal.pem'),
        LEDGER_SEAL_KEY: join(pki, 'keys/seal.key.pem'),
        LEDGER_TSA_URLS: infra().TSA_URL!,
        ERASURE_INTERVAL_MS: '1000',
      },
    });
    acct = await createAccount(stack.gatewayUrl, mailpit, { orgName: 'Deletion Ltd', tag: 'deletion' });
    other = await createAccount(stack.gatewayUrl, mailpit, { orgName: 'Other Ltd', tag: 'deletion-other' });
  }, 300_000);
  afterAll(async () => {
    await stack?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('deletes a signed transaction with the ledger and ceremony down; they finish on restart; the certificate still verifies', async () => {
    const pdf = tinyPdf(`Signet deletion ${randomUUID()}`);
    const sha = createHash('sha256').update(pdf).digest('hex');
    const signerEmail = `ada-${randomUUID().slice(0, 8)}@example.com`;
    const { reference } = await makeGenuineCapture(join(dir, 'ref'), null);
    const r = await send(stack.gatewayUrl, 'POST', '/api/transactions', {
      headers: { 'x-api-key': acct.apiKey },
      parts: [
        { name: 'signer_name', value: 'Ada Lovelace' },
        { name: 'signer_email', value: signerEmail },
        // The single upload below proves only "recorded"; the API requires live unless told otherwise.
        { name: 'required_assurance', value: 'recorded' },
        { name: 'document', filename: 'Agreement.pdf', contentType: 'application/pdf', data: pdf },
        { name: 'reference', filename: 'reference.jpg', contentType: 'image/jpeg', data: readFileSync(reference) },
      ],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const { id, token, reference: certRef } = r.body as { id: number; token: string; reference: string };

    // Rendered for the test seed's predicted draw before it is asked for (test/support/predicted-capture.ts).
    const gateway: Gateway = (method, path, init) => send(stack.gatewayUrl, method, path, init);
    const cap = await consentAndCapture({ gateway, id, token, seed: SEED, dir, headers: ip });
    expect(cap.status, JSON.stringify(cap.body)).toBeLessThan(300);
    const done = await awaitOutcome(gateway, id, { 'x-api-key': acct.apiKey }, 400_000);
    expect(done.status, `the verdict did not pass: ${JSON.stringify(done)}`).toBe('ledger_issued');

    // Sealed and mailed: the download link works, and so do the owner's PDFs and /api/verify.
    const [mail] = await eventually(async () => {
      const m = await mails(`to:"${signerEmail}" subject:"Completed"`);
      return m.length ? m : undefined;
    }, 90_000);
    const download = /https?:\/\/\S+\/api\/downloads\/[\w.-]+/.exec(await textOf(mail!.ID))![0];
    expect((await fetch(download)).status).toBe(200);
    expect((await call('GET', `/api/transactions/${id}/signed.pdf`)).status).toBe(200);
    expect((await call('GET', `/api/transactions/${id}/audit-trail.pdf`)).status).toBe(200);
    const verifyPath = `/api/verify/${certRef}/${sha.slice(0, 16)}`;
    const before = await send(stack.gatewayUrl, 'GET', verifyPath);
    expect(before.body).toMatchObject({ valid: true });

    // Another account: 404, nothing changed.
    expect((await call('DELETE', `/api/transactions/${id}`, other.apiKey)).status).toBe(404);
    expect((await call('GET', `/api/transactions/${id}`)).status).toBe(200);

    // The ledger's and the ceremony's consumers are down while the deletion's events go out.
    await stack.stopService('ledger');
    await stack.stopService('ceremony');
    const del = await call('DELETE', `/api/transactions/${id}`);
    expect(del.status, del.text).toBe(204);
    expect((await call('GET', `/api/transactions/${id}`)).status).toBe(404);
    const list = await call('GET', '/api/transactions?limit=100');
    expect((list.body as { id: number }[]).map((s) => s.id)).not.toContain(id);
    expect((await call('GET', `/api/transactions/${id}/signed.pdf`)).status).toBe(404);
    expect((await call('DELETE', `/api/transactions/${id}`)).status).toBe(404);

    await stack.startService('ledger');
    await stack.startService('ceremony');
    // The ledger finishes: the download link answers 404 (its bucket: services/ledger/test/signed-pdf-deletion.int.test.ts).
    await eventually(async () => ((await fetch(download)).status === 404 ? true : undefined), 60_000, 500);
    // The signing link is gone; the certificate still answers in the log.
    expect((await send(stack.gatewayUrl, 'GET', `/api/sign/${token}/summary`, { headers: ip })).status).toBe(404);
    const after = await send(stack.gatewayUrl, 'GET', verifyPath);
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ valid: true });
  }, 900_000);

  it('refuses a pending transaction with 409, nothing changed', async () => {
    const tx = await createTransaction(stack.gatewayUrl, acct, 'Grace Hopper', stack.env.TRANSACTION_ADDR);
    // (once its link is mailed: the mail's entry would otherwise arrive between the two reads)
    const before = await eventually(async () => {
      const d = (await call('GET', `/api/transactions/${tx.id}`)).body;
      return (d.events as LogEvent[]).some((e) => e.type === 'link_mailed') ? d : undefined;
    }, 30_000);
    const r = await call('DELETE', `/api/transactions/${tx.id}`);
    expect(r.status).toBe(409);
    expect(r.body.detail).toMatch(/cancel it first/);
    expect((await call('GET', `/api/transactions/${tx.id}`)).body).toEqual(before);
    expect((await send(stack.gatewayUrl, 'GET', `/api/sign/${tx.token}/summary`, { headers: ip })).status).toBe(200);
  }, 60_000);

  it('a held transaction: 409 until the hold is released, then deleted', async () => {
    const tx = await createTransaction(stack.gatewayUrl, acct, 'Alan Turing', stack.env.TRANSACTION_ADDR);
    expect((await call('POST', `/api/transactions/${tx.id}/cancel`)).status).toBe(200);
    const hold = await call('PUT', `/api/transactions/${tx.id}/legal-hold`, acct.apiKey, { reason: 'court order 42' });
    expect(hold.status).toBe(200);
    expect((await call('GET', `/api/transactions/${tx.id}`)).body.legal_hold).toEqual(hold.body);
    const refused = await call('DELETE', `/api/transactions/${tx.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/legal hold/);
    expect((await call('GET', `/api/transactions/${tx.id}`)).status).toBe(200);
    expect((await call('DELETE', `/api/transactions/${tx.id}/legal-hold`, other.apiKey)).status).toBe(404);
    expect((await call('DELETE', `/api/transactions/${tx.id}/legal-hold`)).status).toBe(204);
    expect((await call('GET', `/api/transactions/${tx.id}`)).body.legal_hold).toBeNull();
    expect((await call('DELETE', `/api/transactions/${tx.id}`)).status).toBe(204);
    expect((await call('GET', `/api/transactions/${tx.id}`)).status).toBe(404);
  }, 60_000);
});
