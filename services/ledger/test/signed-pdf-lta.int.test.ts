/**
 * PAdES B-LTA (issue 32 item 7) with a real ledger, real object storage and certomancer TSAs of a
 * PKI made for this file (fixtures/short-lived-tsa.ts): the sealed PDF ends with a document timestamp
 * after the DSS, which pyHanko's LTA validation (ETSI EN 319 102-1, offline) takes as the evidence
 * record; and the re-timestamping job — after a restart, on two replicas at once — renews a PDF whose
 * document timestamp's TSA certificate expires within the margin, exactly once, so that the PDF still
 * validates after that certificate has expired, where the PDF before renewal does not.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBus, createLogger, createS3, ensureBuckets, parseConfig, publishEvent, STREAM, type Bus } from '@signet/kit';
import { events, eventsV1 } from '@signet/proto';
import { parseVerifierKey } from '@signet/verify';
import { parsePemCertificates, verifySignedPdf } from '@signet/verify/signed-pdf';
import { PDFDocument } from 'pdf-lib';
import { eventually, infra, testSecrets } from '../../../test/harness/services.js';
import { freePort } from '../../../test/harness/local-infra.js';
import { startLedger } from '../src/app.js';
import { ledgerConfigSchema } from '../src/config.js';
import { timestampsOf } from '../src/pdf/doc-timestamp.js';
import { ltaValidate, run } from './fixtures/signed-pdf-checks.js';
import { startShortLivedPki, type ShortLivedPki } from './fixtures/short-lived-tsa.js';
import { downloadSignedPdf, sealedPdf } from './fixtures/download.js';

const logger = createLogger('ledger-signed-pdf-lta-test', 'warn');
const python = join(process.env.SIGNET_CACHE ?? join(homedir(), '.cache/signet'), 'tsa-venv/bin/python');

function verifiedEvent(reference: string, doc: { key: string; sha256: string }) {
  const eventId = randomUUID();
  const at = new Date().toISOString();
  return {
    eventId,
    payload: eventsV1.TransactionVerified.encode(
      eventsV1.TransactionVerified.fromPartial({
        eventId,
        occurredAt: at,
        transactionId: 79,
        reference,
        documentSha256: doc.sha256,
        documentName: 'Agreement.pdf',
        documentKey: doc.key,
        issuerName: 'Acme Ltd',
        attestationType: 'signature',
        ownerId: 'u1',
        signers: [
          {
            name: 'Ada Lovelace',
            email: 'ada@example.com',
            verificationMode: 'liveness',
            assurance: 'live',
            verifiedAt: at,
            videoSha256: 'a'.repeat(64),
            frameSha256: 'b'.repeat(64),
            referenceSha256: '',
          },
        ],
      }),
    ).finish(),
  };
}

describe('PAdES B-LTA: a document timestamp at sealing, and its renewal before the TSA certificate expires', () => {
  const i = infra();
  const db = `t_${randomUUID().slice(0, 8)}_ledger_lta`;
  const buckets = {
    BUCKET_DOCUMENTS: `t-docs-${randomUUID().slice(0, 8)}`,
    BUCKET_SIGNED: `t-signed-${randomUUID().slice(0, 8)}`,
  };
  const s3 = createS3({ ...i, S3_REGION: 'us-east-1' });
  const secrets = testSecrets();
  let bus: Bus;
  let dir: string;
  let pki: ShortLivedPki;
  let reference: string;
  /** The PDF as sealed (B-LTA with the short-lived TSA's document timestamp). */
  let sealed: Buffer;

  const ledgerWith = async (env: Record<string, string>) =>
    startLedger(
      parseConfig(ledgerConfigSchema, {
        ...i,
        ...secrets,
        ...buckets,
        MONGO_DB: db,
        GRPC_PORT: String(await freePort()),
        OPS_PORT: String(await freePort()),
        LEDGER_SEAL_CERT: pki.sealCert,
        LEDGER_SEAL_KEY: pki.sealKey,
        LEDGER_SEAL_POLL_MS: '200',
        LEDGER_SEAL_LTV: 'on',
        LEDGER_SEAL_LTA: 'on',
        LEDGER_SEAL_CA_CERTS: pki.rootPem,
        LEDGER_RETIMESTAMP_POLL_MS: '300',
        ...env,
      }),
      { logger },
    );

  /** Puts `pdf` as a transaction's document, publishes its verification and returns the signed PDF once sealed. */
  async function sealDocument(grpcPort: number, pdf: Buffer): Promise<Buffer> {
    const key = `docs/${randomUUID()}.pdf`;
    await s3.putObject(buckets.BUCKET_DOCUMENTS, key, pdf);
    reference = `LTA-TX-${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const ev = verifiedEvent(reference, { key, sha256: createHash('sha256').update(pdf).digest('hex') });
    await publishEvent(bus, events.transactionVerified, { eventId: ev.eventId, payload: ev.payload });
    return sealedPdf(grpcPort, reference);
  }

  const verifyOpts = (verifierKey: string) => ({
    trustRoots: parsePemCertificates(readFileSync(pki.rootPem, 'utf8')),
    logKeys: [{ keys: [parseVerifierKey(verifierKey)], log: 'live' as const }],
  });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'signet-lta-'));
    // The short TSA's certificate ends in 2 hours: within a margin of a day, beyond one of a minute.
    pki = await startShortLivedPki(join(dir, 'pki'), await freePort(), 2 * 3_600_000);
    await ensureBuckets(s3, [buckets.BUCKET_DOCUMENTS]);
    bus = await connectBus(i.NATS_URL, 'test');
    await bus.jsm.consumers.delete(STREAM, 'ledger-transaction-verified').catch(() => undefined);
    await bus.jsm.streams.purge(STREAM, { filter: events.transactionVerified.subject });
  }, 120_000);
  afterAll(async () => {
    pki?.stop();
    await bus?.nc.drain();
    if (dir && !process.env.KEEP_TEST_DIR) rmSync(dir, { recursive: true, force: true });
  });

  it('seals at B-LTA: a document timestamp after the DSS, which pyHanko validates offline as the evidence record', async () => {
    const ledger = await ledgerWith({ LEDGER_TSA_URLS: pki.shortTsaUrl, LEDGER_RETIMESTAMP_MARGIN_MS: '60000' });
    try {
      const doc = await PDFDocument.create();
      doc.addPage([300, 200]).drawText(`Agreement ${randomUUID()}`, { x: 20, y: 100, size: 10 });
      sealed = await sealDocument(ledger.grpcPort, Buffer.from(await doc.save()));

      // The seal's signature timestamp, then one document timestamp by the short-lived TSA, whose byte range covers the whole file.
      const stamps = timestampsOf(sealed);
      expect(stamps.map((s) => s.kind)).toEqual(['signature', 'doc']);
      expect(stamps[1]!.tsaNotAfter.getTime()).toBe(pki.shortNotAfter.getTime());
      const text = sealed.toString('latin1');
      const ranges = [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)].map((m) =>
        m.slice(1).map(Number),
      );
      expect(ranges).toHaveLength(2);
      expect(ranges[1]![2]! + ranges[1]![3]!).toBe(sealed.length);
      const docTs = text.lastIndexOf('/Type /DocTimeStamp');
      expect(docTs).toBeGreaterThan(text.lastIndexOf('/DSS'));
      expect(text.slice(docTs - 200, docTs + 200)).toContain('/SubFilter /ETSI.RFC3161');

      const file = join(dir, 'lta.pdf');
      writeFileSync(file, sealed);
      const lta = await ltaValidate(file, pki.rootPem);
      expect(lta.code, lta.out).toBe(0);
      expect(lta.results).toHaveLength(1);
      expect(lta.results[0]).toMatchObject({ valid: true, indication: 'AdESPassed.OK', document_timestamps: 1 });
      expect(Date.parse(lta.results[0]!.evidence_record!)).toBe(stamps[1]!.time.getTime());
      // The same file cut before its document timestamp (B-LT): no evidence record.
      const eofs = [...text.matchAll(/%%EOF\r?\n?/g)].map((m) => m.index! + m[0].length);
      writeFileSync(join(dir, 'lt.pdf'), sealed.subarray(0, eofs.at(-2)));
      const lt = await ltaValidate(join(dir, 'lt.pdf'), pki.rootPem);
      expect(lt.results[0]).toMatchObject({ evidence_record: null, document_timestamps: 0 });

      // Signet's own check of the signed PDF takes the document timestamp update as maintenance.
      const report = await verifySignedPdf(sealed, verifyOpts(ledger.signer.verifierKey));
      expect(report.checks.filter((c) => !c.ok)).toEqual([]);
      expect(report.checks.find((c) => c.name === 'coverage')!.detail).toContain('document timestamps');
      // Only an invisible document-timestamp field passes as maintenance: the same update with the
      // widget made visible, or its value a plain signature, is a change after sealing.
      const last = text.lastIndexOf('/Rect [ 0 0 0 0 ]');
      expect(last).toBeGreaterThan(ranges[0]![2]! + ranges[0]![3]!);
      for (const [from, to, at] of [
        ['/Rect [ 0 0 0 0 ]', '/Rect [ 0 0 9 9 ]', last],
        ['/Type /DocTimeStamp', '/Type /Sig         ', docTs],
      ] as const) {
        const forged = Buffer.from(sealed);
        forged.write(to, at, 'latin1');
        expect(forged.toString('latin1', at, at + from.length)).toBe(to);
        const r = await verifySignedPdf(forged, verifyOpts(ledger.signer.verifierKey));
        expect(
          r.checks.find((c) => c.name === 'coverage'),
          to,
        ).toMatchObject({ ok: false });
      }
    } finally {
      await ledger.stop();
    }
  }, 180_000);

  it('timestamps it again before the TSA certificate expires: after a restart, once across two replicas, valid after that expiry', async () => {
    expect(sealed, 'the first test seals the PDF').toBeDefined();
    // Two replicas, the TSA valid for years, a margin of a day: the short-lived timestamp is due.
    const env = { LEDGER_TSA_URLS: pki.tsaUrl, LEDGER_RETIMESTAMP_MARGIN_MS: String(86_400_000) };
    const [a, b] = await Promise.all([ledgerWith(env), ledgerWith(env)]);
    try {
      const renewed = await eventually(
        async () => {
          const pdf = await downloadSignedPdf(a.grpcPort, reference).catch(() => null);
          return pdf && timestampsOf(pdf).length === 3 ? pdf : null;
        },
        60_000,
        250,
      );
      // An incremental update of the sealed bytes: a DSS with the first document timestamp's validation data, then a new one.
      expect(renewed.subarray(0, sealed.length).equals(sealed)).toBe(true);
      const stamps = timestampsOf(renewed);
      expect(stamps.map((s) => s.kind)).toEqual(['signature', 'doc', 'doc']);
      expect(stamps[2]!.tsaNotAfter.getFullYear()).toBe(2049);
      // Several passes of both replicas later, still renewed once (no longer due), counted once.
      await new Promise((r) => setTimeout(r, 1500));
      expect(timestampsOf(await downloadSignedPdf(b.grpcPort, reference))).toHaveLength(3);
      const counted = async (ops: number) => {
        const m = /^signet_ledger_signed_pdf_retimestamps_total\{[^}]*result="renewed"[^}]*\} (\d+)$/m.exec(
          await (await fetch(`http://127.0.0.1:${ops}/metrics`)).text(),
        );
        return m ? Number(m[1]) : 0;
      };
      expect((await counted(a.opsPort)) + (await counted(b.opsPort))).toBe(1);
      const expiry = /^signet_ledger_signed_pdf_timestamp_expiry_seconds\S* (\S+)$/m.exec(
        await (await fetch(`http://127.0.0.1:${a.opsPort}/metrics`)).text(),
      );
      expect(Number(expiry?.[1])).toBeGreaterThan(86_400);

      const file = join(dir, 'renewed.pdf');
      writeFileSync(file, renewed);
      const now = await ltaValidate(file, pki.rootPem);
      expect(now.results[0], now.out).toMatchObject({ valid: true, indication: 'AdESPassed.OK', document_timestamps: 2 });
      // An hour after the short-lived TSA certificate expired (the seal's signature timestamp and the first
      // document timestamp are both by it): the renewed PDF still passes the LTA algorithm on the evidence
      // of the first document timestamp, proven by the second; the PDF as sealed has no evidence left.
      const later = new Date(pki.shortNotAfter.getTime() + 3_600_000);
      const renewedLater = await ltaValidate(file, pki.rootPem, later);
      const sealedLater = await ltaValidate(join(dir, 'lta.pdf'), pki.rootPem, later);
      expect(renewedLater.results[0], renewedLater.out).toMatchObject({ indication: 'AdESPassed.OK' });
      expect(Date.parse(renewedLater.results[0]!.evidence_record!)).toBe(stamps[1]!.time.getTime());
      expect(sealedLater.results[0], sealedLater.out).toMatchObject({ evidence_record: null });
      expect(sealedLater.results[0]!.indication).not.toBe('AdESPassed.OK');

      const report = await verifySignedPdf(renewed, verifyOpts(a.signer.verifierKey));
      expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  }, 180_000);

  it('maintains only the seal’s timestamps: a signature (and timestamp) the upload already carried stays revision 1’s', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([300, 200]).drawText(`Pre-signed ${randomUUID()}`, { x: 20, y: 100, size: 10 });
    writeFileSync(join(dir, 'pre-unsigned.pdf'), Buffer.from(await doc.save()));
    // Signed and timestamped before upload (pyHanko, the TSA valid for years): not the ledger's to renew.
    const pre = await run(join(python, '../pyhanko'), [
      'sign',
      'addsig',
      '--field',
      'Sig1',
      '--timestamp-url',
      pki.tsaUrl,
      'pemder',
      '--key',
      pki.sealKey,
      '--cert',
      pki.sealCert,
      '--no-pass',
      join(dir, 'pre-unsigned.pdf'),
      join(dir, 'pre.pdf'),
    ]);
    expect(pre.code, pre.out).toBe(0);
    const original = readFileSync(join(dir, 'pre.pdf'));
    const ledger = await ledgerWith({ LEDGER_TSA_URLS: pki.shortTsaUrl, LEDGER_RETIMESTAMP_MARGIN_MS: '60000' });
    try {
      const signed = await sealDocument(ledger.grpcPort, original);
      expect(signed.subarray(0, original.length).equals(original)).toBe(true);
      // The seal's signature timestamp (the short-lived TSA) and the document timestamp; not the upload's.
      const stamps = timestampsOf(signed);
      expect(stamps.map((t) => t.kind)).toEqual(['signature', 'doc']);
      expect(stamps.map((t) => t.tsaNotAfter.getTime())).toEqual([pki.shortNotAfter.getTime(), pki.shortNotAfter.getTime()]);
      writeFileSync(join(dir, 'pre-lta.pdf'), signed);
      const lta = await ltaValidate(join(dir, 'pre-lta.pdf'), pki.rootPem);
      const seal = lta.results.find((r) => r.field !== 'Sig1');
      expect(seal, lta.out).toMatchObject({ indication: 'AdESPassed.OK', document_timestamps: 1 });
      expect(seal!.evidence_record).not.toBeNull();
    } finally {
      await ledger.stop();
    }
  }, 180_000);
});
