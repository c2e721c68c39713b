/**
 * Test mode's signed PDF (issue 32 item 6) with a real ledger, object storage and the harness's TSA:
 * a test-mode transaction.verified yields a signed PDF and an audit trail from the test log — the
 * upload as revision 1, every page marked TEST, cert.json of the test log, sealed with the generated
 * TEST seal (not under the dev root) — while the live log and its signed-PDF records stay empty.
 */
import { createHash, randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBus, createLogger, createS3, ensureBuckets, parseConfig, publishEvent, STREAM, type Bus } from '@signet/kit';
import { events, eventsV1 } from '@signet/proto';
import { parseVerifierKey } from '@signet/verify';
import { parsePemCertificates, verifySignedPdf } from '@signet/verify/signed-pdf';
import { infra, testSecrets } from '../../../test/harness/services.js';
import { freePort } from '../../../test/harness/local-infra.js';
import { startLedger } from '../src/app.js';
import { ledgerConfigSchema } from '../src/config.js';
import { createLogSigner, parseSigningKey } from '../src/domain/signer.js';
import { TEST_BANNER, TEST_SEAL_NAME } from '../src/pdf/test-seal.js';
import { extractCertJson, pyhankoValidate } from './fixtures/signed-pdf-checks.js';
import { tinyPdf } from '../../../test/fixtures/ceremony-media.js';
import { downloadSignedPdf, sealedPdf } from './fixtures/download.js';

const logger = createLogger('ledger-test-mode-pdf-test', 'warn');

describe('test mode: a signed PDF and an audit trail from the test log, sealed with the TEST seal', () => {
  const i = infra();
  const pki = i.DEV_PKI_DIR ?? '';
  const db = `t_${randomUUID().slice(0, 8)}_ledger_testpdf`;
  const buckets = {
    BUCKET_DOCUMENTS: `t-docs-${randomUUID().slice(0, 8)}`,
    BUCKET_SIGNED: `t-signed-${randomUUID().slice(0, 8)}`,
  };
  const s3 = createS3({ ...i, S3_REGION: 'us-east-1' });
  const secrets = testSecrets();
  let bus: Bus;
  let dir: string;
  let ledger: Awaited<ReturnType<typeof startLedger>>;

  beforeAll(async () => {
    if (!i.TSA_URL || !pki) throw new Error('no local TSA: the harness starts one with scripts/tsa.sh (run scripts/install.sh)');
    dir = mkdtempSync(join(tmpdir(), 'signet-test-mode-pdf-'));
    await ensureBuckets(s3, [buckets.BUCKET_DOCUMENTS]);
    bus = await connectBus(i.NATS_URL, 'test');
    await bus.jsm.consumers.delete(STREAM, 'ledger-transaction-verified').catch(() => undefined);
    await bus.jsm.streams.purge(STREAM, { filter: events.transactionVerified.subject });
    ledger = await startLedger(
      parseConfig(ledgerConfigSchema, {
        ...i,
        ...secrets,
        ...buckets,
        MONGO_DB: db,
        GRPC_PORT: String(await freePort()),
        OPS_PORT: String(await freePort()),
        LEDGER_SEAL_CERT: join(pki, 'certs/seal.pem'),
        LEDGER_SEAL_KEY: join(pki, 'keys/seal.key.pem'),
        LEDGER_TSA_URLS: i.TSA_URL,
        LEDGER_SEAL_POLL_MS: '200',
      }),
      { logger },
    );
  }, 120_000);
  afterAll(async () => {
    await ledger?.stop();
    await bus?.nc.drain();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('seals it apart: revision 1 kept, TEST on every page, the test log in cert.json, a seal no live root trusts', async () => {
    const pdf = tinyPdf(`Sandbox ${randomUUID()}`);
    const key = `docs/${randomUUID()}.pdf`;
    await s3.putObject(buckets.BUCKET_DOCUMENTS, key, pdf);
    const reference = `TST-TX-${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const eventId = randomUUID();
    const at = new Date().toISOString();
    const payload = eventsV1.TransactionVerified.encode(
      eventsV1.TransactionVerified.fromPartial({
        eventId,
        occurredAt: at,
        transactionId: 81,
        reference,
        documentSha256: createHash('sha256').update(pdf).digest('hex'),
        documentName: 'Sandbox.pdf',
        documentKey: key,
        issuerName: 'Sandbox Ltd',
        attestationType: 'signature',
        ownerId: 'u1',
        test: true,
        signers: [
          { name: 'Test Signer', email: 'test@example.com', verificationMode: 'liveness', assurance: 'test', verifiedAt: at },
        ],
      }),
    ).finish();
    await publishEvent(bus, events.transactionVerified, { eventId, payload });
    const signed = await sealedPdf(ledger.grpcPort, reference);
    const audit = await downloadSignedPdf(ledger.grpcPort, reference, true);

    expect(signed.subarray(0, pdf.length).equals(pdf)).toBe(true);
    const file = join(dir, 'signed.pdf');
    writeFileSync(file, signed);
    writeFileSync(join(dir, 'audit.pdf'), audit);
    for (const path of [file, join(dir, 'audit.pdf')]) {
      const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [path], { encoding: 'utf8' }))?.[1]);
      expect(pages).toBeGreaterThan(0);
      for (let p = 1; p <= pages; p++)
        expect(
          execFileSync('pdftotext', ['-f', `${p}`, '-l', `${p}`, path, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' '),
          `${path} page ${p}`,
        ).toContain(TEST_BANNER);
    }

    // cert.json is the test log's; the live log holds nothing and seals nothing.
    const cert = JSON.parse(await extractCertJson(file)) as { checkpoint: string };
    expect(cert.checkpoint.split('\n')[0]).toBe('signet.local/ledger/test');
    expect(await ledger.certs.findByReference(reference)).toBeNull();
    expect((await ledger.log.head()).size).toBe(0);

    // Sealed with the TEST seal: intact and timestamped, but no live root trusts it (signet's check and pyHanko).
    const testKey = parseVerifierKey(
      createLogSigner(parseSigningKey(secrets.LEDGER_TEST_SIGNING_KEY), 'signet.local/ledger/test').verifierKey,
    );
    const report = await verifySignedPdf(signed, {
      trustRoots: parsePemCertificates(readFileSync(join(pki, 'certs/root.pem'), 'utf8')),
      logKeys: [{ keys: [testKey], log: 'test' }],
    });
    expect(report.signer).toContain(TEST_SEAL_NAME);
    expect(report.log).toBe('test');
    for (const name of ['coverage', 'integrity', 'document', 'evidence inclusion', 'consistency'])
      expect(report.checks.find((c) => c.name === name)?.ok, name).toBe(true);
    expect(report.checks.find((c) => c.name === 'certificate')?.ok).toBe(false);
    expect(report.ok).toBe(false);
    const v = await pyhankoValidate(file, join(pki, 'certs/root.pem'));
    expect(v.code, v.out).not.toBe(0);
    expect(v.out).not.toContain('The signature is judged VALID');
  }, 120_000);
});
