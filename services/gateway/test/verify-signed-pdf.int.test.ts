/**
 * POST /api/verify/signed-pdf and the /verify page's drop, through a real gateway and a real ledger
 * that seals (dev CA, local TSA, B-LT) a PDF for a transaction.verified event: the download passes
 * every check; a changed byte, an unsigned PDF and junk are 400 (junk at once), a declared size over
 * the cap is 413, the 21st call in a minute from one address is 429; in Chromium the page lists
 * every check and says "Verified signed PDF".
 */
import { createHash, generateKeyPairSync, randomUUID } from 'node:crypto';
import { formatWitnessKey } from '@signet/verify';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBus, createClient, createS3, ensureBuckets, Metrics, publishEvent, STREAM, type Bus } from '@signet/kit';
import { events, eventsV1, ledgerV1 } from '@signet/proto';
import { eventually, infra, startServices } from '../../../test/harness/services.js';
import { launchChromium } from '../../../test/e2e/browser/chromium.js';
import { tinyPdf } from '../../../test/fixtures/ceremony-media.js';

type Report = { valid: boolean; reference: string; log: string; sealed_by: string; checks: { name: string; ok: boolean }[] };

describe('POST /api/verify/signed-pdf and the /verify page (real gateway and sealing ledger)', () => {
  const i = infra();
  const pki = i.DEV_PKI_DIR ?? '';
  const buckets = {
    BUCKET_DOCUMENTS: `t-docs-${randomUUID().slice(0, 8)}`,
    BUCKET_SIGNED: `t-signed-${randomUUID().slice(0, 8)}`,
  };
  let stack: Awaited<ReturnType<typeof startServices>>;
  let bus: Bus;
  let dir: string;
  let signed: Buffer;
  let unsigned: Buffer;
  const reference = `TSG-TX-${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  let ipSeq = 1;
  const ip = () => `10.78.${Math.floor(Math.random() * 250)}.${ipSeq++}`;
  const post = (url: string, body: Buffer, from = ip(), headers: Record<string, string> = {}) =>
    fetch(`${url}/api/verify/signed-pdf`, {
      method: 'POST',
      headers: { 'content-type': 'application/pdf', 'x-forwarded-for': from, ...headers },
      body: new Uint8Array(body),
    });

  beforeAll(async () => {
    if (!i.TSA_URL || !pki) throw new Error('no local TSA: the harness starts one with scripts/tsa.sh (run scripts/install.sh)');
    const s3 = createS3({ ...i, S3_REGION: 'us-east-1' });
    await ensureBuckets(s3, [buckets.BUCKET_DOCUMENTS]);
    bus = await connectBus(i.NATS_URL, 'test');
    await bus.jsm.consumers.delete(STREAM, 'ledger-transaction-verified').catch(() => undefined);
    await bus.jsm.streams.purge(STREAM, { filter: events.transactionVerified.subject });
    dir = mkdtempSync(join(tmpdir(), 'signet-gw-verify-pdf-'));
    stack = await startServices(['ledger', 'gateway'], {
      env: {
        ...buckets,
        LEDGER_SEAL_CERT: join(pki, 'certs/seal.pem'),
        LEDGER_SEAL_KEY: join(pki, 'keys/seal.key.pem'),
        LEDGER_TSA_URLS: i.TSA_URL,
        LEDGER_SEAL_LTV: 'on',
        LEDGER_SEAL_POLL_MS: '200',
        VERIFY_TRUST_ROOTS: join(pki, 'certs/root.pem'),
        VERIFY_SIGNED_PDF_MAX_BYTES: String(2 * 1024 * 1024),
      },
    });

    unsigned = tinyPdf(`Agreement ${randomUUID()}`);
    const key = `docs/${randomUUID()}.pdf`;
    await s3.putObject(buckets.BUCKET_DOCUMENTS, key, unsigned);
    const eventId = randomUUID();
    const at = new Date().toISOString();
    const payload = eventsV1.TransactionVerified.encode(
      eventsV1.TransactionVerified.fromPartial({
        eventId,
        occurredAt: at,
        transactionId: 79,
        reference,
        documentSha256: createHash('sha256').update(unsigned).digest('hex'),
        documentName: 'Umowa.pdf',
        documentKey: key,
        issuerName: 'Acme Sp. z o.o.',
        attestationType: 'signature',
        ownerId: 'u1',
        signers: [
          {
            name: 'Jan Łukasiewicz',
            email: 'jan@example.com',
            verificationMode: 'liveness',
            assurance: 'live',
            verifiedAt: at,
            videoSha256: 'a'.repeat(64),
            frameSha256: 'b'.repeat(64),
          },
        ],
      }),
    ).finish();
    await publishEvent(bus, events.transactionVerified, { eventId, payload });
    const client = createClient(ledgerV1.LedgerServiceClient, stack.env.LEDGER_ADDR!, { metrics: new Metrics('test') });
    try {
      signed = await eventually(
        async () => {
          const parts: Buffer[] = [];
          try {
            for await (const c of client.serverStream(
              ledgerV1.LedgerServiceService.getSignedPdf,
              { reference, auditTrail: false },
              { deadlineMs: 30_000 },
            ))
              parts.push(Buffer.from(c.data));
          } catch {
            return undefined;
          }
          return Buffer.concat(parts);
        },
        90_000,
        250,
      );
    } finally {
      client.raw.close();
    }
  }, 240_000);
  afterAll(async () => {
    await stack?.stop();
    await bus?.nc.drain();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('answers every check for the sealed PDF; refuses a changed byte, an unsigned PDF, junk at once and an oversized body', async () => {
    const ok = await post(stack.gatewayUrl, signed);
    const report = (await ok.json()) as Report;
    expect(ok.status, JSON.stringify(report)).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    expect(report).toMatchObject({ valid: true, reference, log: 'live', sealed_by: 'Signet Dev Document Seal' });
    // What the embedded certificate proves, read from it once every check passed (issue 30).
    expect(report).toMatchObject({
      assurance: 'live',
      assurance_meaning: expect.stringMatching(
        /^A recording produced in real time after each prompt was revealed; .*virtual camera\.$/,
      ),
      signers: [{ name: 'Jan Łukasiewicz', role: 'signer', assurance: 'live' }],
    });
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.checks.map((c) => c.name)).toEqual(
      expect.arrayContaining([
        'coverage',
        'integrity',
        'timestamp',
        'certificate',
        'evidence checkpoint',
        'evidence inclusion',
        'consistency',
      ]),
    );

    const tampered = Buffer.from(signed);
    tampered[tampered.indexOf(Buffer.from(`Signet certificate ${reference}`))] = 's'.charCodeAt(0);
    const bad = await post(stack.gatewayUrl, tampered);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { detail: string }).detail).toMatch(/^the seal is invalid: the file was changed after sealing/);

    const plain = await post(stack.gatewayUrl, unsigned);
    expect(plain.status).toBe(400);
    expect(((await plain.json()) as { detail: string }).detail).toContain('no signature');

    // 20 MB of junk: its declared size is over the cap, 413 before a byte is read; under the cap,
    // junk is refused from its first bytes, 400. Both at once.
    let started = Date.now();
    const huge = await post(stack.gatewayUrl, Buffer.alloc(20 * 1024 * 1024, 0x41));
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as { detail: string }).detail).toContain('at most 2 MB');
    expect(Date.now() - started).toBeLessThan(5_000);
    started = Date.now();
    const junk = await post(stack.gatewayUrl, Buffer.alloc(1536 * 1024, 0x41));
    expect(junk.status).toBe(400);
    expect(((await junk.json()) as { detail: string }).detail).toContain('not a PDF');
    expect(Date.now() - started).toBeLessThan(5_000);

    const big = await post(stack.gatewayUrl, Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(3 * 1024 * 1024)]));
    expect(big.status).toBe(413);
    expect(((await big.json()) as { detail: string }).detail).toContain('at most 2 MB');
    // Without a declared size (chunked), the count of bytes read decides.
    const chunks = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(Buffer.from('%PDF-1.7\n'));
        for (let n = 0; n < 48; n++) c.enqueue(Buffer.alloc(64 * 1024));
        c.close();
      },
    });
    const streamed = await fetch(`${stack.gatewayUrl}/api/verify/signed-pdf`, {
      method: 'POST',
      headers: { 'content-type': 'application/pdf', 'x-forwarded-for': ip() },
      body: chunks,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
  }, 120_000);

  it('requires the witness quorum the ledger names: a PDF whose checkpoint lacks the cosignatures is not valid, and says so', async () => {
    // The same log (key and origin) now configured with a witness that never cosigned the PDF's
    // checkpoint (issue 32): the route checks cert.json as `signet-verify --witness` does.
    const witness = formatWitnessKey(
      'witness.example/w1',
      generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(-32),
    );
    const witnessed = await startServices(['ledger', 'gateway'], {
      env: {
        LEDGER_SIGNING_KEY: stack.env.LEDGER_SIGNING_KEY!,
        LEDGER_WITNESSES: JSON.stringify([{ url: 'http://127.0.0.1:9/', key: witness }]),
        VERIFY_TRUST_ROOTS: join(pki, 'certs/root.pem'),
      },
    });
    try {
      const r = await post(witnessed.gatewayUrl, signed);
      const report = (await r.json()) as Report & { checks: { name: string; ok: boolean; detail: string }[] };
      expect(r.status, JSON.stringify(report)).toBe(200);
      expect(report.valid).toBe(false);
      expect(report.checks.find((c) => c.name === 'evidence witnesses')).toMatchObject({
        ok: false,
        detail: expect.stringMatching(/0 of .*1/),
      });
      // Everything else about the PDF still holds: only the witnessing is missing.
      expect(report.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['evidence witnesses']);
      // Without witnesses configured the same PDF is valid (the first case): the check follows the ledger.
    } finally {
      await witnessed.stop();
    }
  }, 120_000);

  it('limits one address to 20 checks a minute (429 with Retry-After), others unaffected', async () => {
    const from = ip();
    const junk = Buffer.from('not a pdf');
    for (let n = 0; n < 20; n++) expect((await post(stack.gatewayUrl, junk, from)).status).toBe(400);
    const limited = await post(stack.gatewayUrl, junk, from);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await post(stack.gatewayUrl, junk)).status).toBe(400);
  });

  it('on /verify, a chosen signed PDF is checked by the server and every check is listed; a changed one is refused', async () => {
    writeFileSync(join(dir, 'signed.pdf'), signed);
    const tampered = Buffer.from(signed);
    tampered[tampered.indexOf(Buffer.from(`Signet certificate ${reference}`))] = 's'.charCodeAt(0);
    writeFileSync(join(dir, 'tampered.pdf'), tampered);
    const browser = await launchChromium(join(dir, 'chromium'));
    try {
      const tab = await browser.newPage();
      await tab.goto(`${stack.gatewayUrl}/verify`);
      await tab.locator('#pdf').setInputFiles(join(dir, 'signed.pdf'));
      await tab.locator('#result.ok').waitFor({ timeout: 30_000 });
      expect(await tab.locator('#result').textContent()).toBe(`Verified signed PDF: ${reference}`);
      const listed = await tab.locator('#checks li').allTextContents();
      expect(listed.length).toBeGreaterThanOrEqual(8);
      expect(listed.every((t) => t.startsWith('\u2713'))).toBe(true);
      expect(listed.join('\n')).toContain('the seal covers the whole file');
      expect(await tab.locator('#ref').inputValue()).toBe(reference);
      // The level and what it proves, beside the checks.
      const details = await tab.locator('#details').textContent();
      expect(details).toMatch(/Assurancelive: A recording produced in real time after each prompt was revealed/);
      await tab.locator('#pdf').setInputFiles(join(dir, 'tampered.pdf'));
      await tab.locator('#result.bad').waitFor({ timeout: 30_000 });
      expect(await tab.locator('#result').textContent()).toContain('Not verified: the seal is invalid');
    } finally {
      await browser.close();
    }
  }, 120_000);
});
