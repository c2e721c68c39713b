import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBus, createLogger, createS3, ensureBuckets, parseConfig, publishEvent, STREAM, type Bus } from '@signet/kit';
import { events, eventsV1 } from '@signet/proto';
import { PDFDocument } from 'pdf-lib';
import { eventually, infra, testSecrets } from '../../../test/harness/services.js';
import { freePort } from '../../../test/harness/local-infra.js';
import { startLedger } from '../src/app.js';
import { ledgerConfigSchema } from '../src/config.js';
import { extractCertJson, pdfsig, pdfText, pyhankoValidate, qpdfCheck, signetVerify } from './fixtures/signed-pdf-checks.js';
import { downloadSignedPdf, sealedPdf } from './fixtures/download.js';

const root = join(import.meta.dirname, '../../..');
const logger = createLogger('ledger-signed-pdf-test', 'warn');

async function documentPdf(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([300, 200]).drawText(text, { x: 20, y: 100, size: 12 });
  doc.addPage([300, 200]);
  return Buffer.from(await doc.save());
}

function verifiedEvent(reference: string, doc: { key: string; sha256: string }) {
  const eventId = randomUUID();
  const at = new Date().toISOString();
  return {
    eventId,
    payload: eventsV1.TransactionVerified.encode(
      eventsV1.TransactionVerified.fromPartial({
        eventId,
        occurredAt: at,
        transactionId: 77,
        reference,
        documentSha256: doc.sha256,
        documentName: 'Umowa – contract.pdf',
        documentKey: doc.key,
        issuerName: 'Acme Sp. z o.o.',
        attestationType: 'signature',
        ownerId: 'u1',
        signers: [
          { name: 'Jan Łukasiewicz', email: 'jan@example.com', verificationMode: 'biometric', assurance: 'live', verifiedAt: at },
          { name: '王小明', email: 'wang@example.com', verificationMode: 'liveness', assurance: 'live', verifiedAt: at },
          { name: 'محمد', email: 'm@example.com', verificationMode: 'liveness', assurance: 'recorded', verifiedAt: at },
          // Devanagari (conjuncts, a reordered vowel sign) and Hebrew: the old fontkit shaping threw on the first.
          {
            name: 'श्रीमती प्रिया शर्मा',
            email: 'priya@example.com',
            verificationMode: 'liveness',
            assurance: 'recorded',
            verifiedAt: at,
          },
          {
            name: 'דוד בן גוריון',
            email: 'david@example.com',
            verificationMode: 'liveness',
            assurance: 'recorded',
            verifiedAt: at,
          },
        ].map((s, i) => ({
          ...s,
          videoSha256: 'a'.repeat(64),
          frameSha256: 'b'.repeat(64),
          referenceSha256: 'c'.repeat(64),
          checks: i === 0 ? ['liveness', 'face_match'] : ['liveness'],
          trail: {
            linkSentAt: '2026-01-02T03:04:05.000Z',
            openedAt: '2026-01-02T03:05:00.000Z',
            consentedAt: '2026-01-02T03:06:00.000Z',
            consentTextVersion: 'consent-v1',
            consentIp: `10.9.8.${i + 1}`,
            consentUserAgent: `Mozilla/5.0 (signer ${i + 1}) Gecko/20100101 Firefox/128.0`,
            capturedAt: '2026-01-02T03:07:00.000Z',
            captureIp: `10.9.9.${i + 1}`,
            captureUserAgent: 'Mozilla/5.0 (capture)',
            attempt: 1,
          },
        })),
      }),
    ).finish(),
  };
}

describe('the signed PDF: PAdES B-T over the document, its audit trail and cert.json', () => {
  const i = infra();
  const pki = i.DEV_PKI_DIR!;
  const rootPem = join(pki ?? '', 'certs/root.pem');
  const db = `t_${randomUUID().slice(0, 8)}_ledger_signed`;
  const buckets = {
    BUCKET_DOCUMENTS: `t-docs-${randomUUID().slice(0, 8)}`,
    BUCKET_SIGNED: `t-signed-${randomUUID().slice(0, 8)}`,
  };
  const secrets = testSecrets();
  const s3 = createS3({ ...i, S3_REGION: 'us-east-1' });
  let bus: Bus;
  let dir: string;
  const sealedConsumer = `test-pdf-sealed-${randomUUID().slice(0, 8)}`;
  const failedConsumer = `test-pdf-failed-${randomUUID().slice(0, 8)}`;

  const config = async (tsaUrls: string) =>
    parseConfig(ledgerConfigSchema, {
      ...i,
      ...secrets,
      ...buckets,
      MONGO_DB: db,
      GRPC_PORT: String(await freePort()),
      OPS_PORT: String(await freePort()),
      LEDGER_SEAL_CERT: join(pki, 'certs/seal.pem'),
      LEDGER_SEAL_KEY: join(pki, 'keys/seal.key.pem'),
      LEDGER_TSA_URLS: tsaUrls,
      LEDGER_SEAL_RETRY_MS: '300',
      LEDGER_SEAL_POLL_MS: '200',
    });

  async function putDocument(text: string) {
    const pdf = await documentPdf(text);
    const key = `docs/${randomUUID()}.pdf`;
    await s3.putObject(buckets.BUCKET_DOCUMENTS, key, pdf);
    return { pdf, key, sha256: createHash('sha256').update(pdf).digest('hex') };
  }

  beforeAll(async () => {
    if (!i.TSA_URL || !pki) throw new Error('no local TSA: the harness starts one with scripts/tsa.sh (run scripts/install.sh)');
    await ensureBuckets(s3, [buckets.BUCKET_DOCUMENTS]);
    bus = await connectBus(i.NATS_URL, 'test');
    // A fresh durable and no verified events of earlier files: this file's ledgers read only its own.
    await bus.jsm.consumers.delete(STREAM, 'ledger-transaction-verified').catch(() => undefined);
    await bus.jsm.streams.purge(STREAM, { filter: events.transactionVerified.subject });
    // A reader of this file's pdf.sealed events (an ephemeral-like durable of its own, removed after).
    await bus.jsm.consumers.add(STREAM, {
      durable_name: sealedConsumer,
      filter_subject: events.pdfSealed.subject,
      ack_policy: 'explicit' as never,
      deliver_policy: 'new' as never,
    });
    await bus.jsm.consumers.add(STREAM, {
      durable_name: failedConsumer,
      filter_subject: events.pdfSealFailed.subject,
      ack_policy: 'explicit' as never,
      deliver_policy: 'new' as never,
    });
    dir = mkdtempSync(join(tmpdir(), 'signet-signed-pdf-'));
  });
  afterAll(async () => {
    await bus?.jsm.consumers.delete(STREAM, failedConsumer).catch(() => undefined);
    await bus?.jsm.consumers.delete(STREAM, sealedConsumer).catch(() => undefined);
    await bus?.nc.drain();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is sealed once, validates with pyHanko, pdfsig and qpdf, carries a verifiable cert.json, and fails when a byte changes', async () => {
    const ledger = await startLedger(await config(i.TSA_URL!), { logger });
    try {
      const doc = await putDocument('The original agreement');
      const reference = `TSP-TX-${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
      const ev = verifiedEvent(reference, doc);
      await publishEvent(bus, events.transactionVerified, { eventId: ev.eventId, payload: ev.payload });

      const sealedEvents = await bus.js.consumers.get(STREAM, sealedConsumer);
      const signed = await sealedPdf(ledger.grpcPort, reference);
      expect(await downloadSignedPdf(ledger.grpcPort, reference)).toEqual(signed); // the same bytes every time

      // The audit-trail PDF is stored once beside it: the same bytes on every download, the same
      // names as written, every signer's recorded trail and the certificate's place in the log.
      const audit = await downloadSignedPdf(ledger.grpcPort, reference, true);
      expect((await downloadSignedPdf(ledger.grpcPort, reference, true)).equals(audit)).toBe(true);
      expect(audit.equals(signed)).toBe(false);
      writeFileSync(join(dir, 'audit.pdf'), audit);
      expect((await qpdfCheck(join(dir, 'audit.pdf'))).code).toBe(0);
      const auditText = await pdfText(join(dir, 'audit.pdf'));
      for (const s of [
        'Audit trail',
        'Jan Łukasiewicz',
        '王小明',
        'محمد',
        'श्रीमती प्रिया शर्मा',
        'דוד בן גוריון',
        'jan@example.com',
        'm@example.com',
        doc.sha256,
        'Acme Sp. z o.o.',
        'Umowa – contract.pdf',
        reference,
        'consent-v1',
        '10.9.8.3',
        '10.9.9.2',
        'Firefox/128.0',
        '2026-01-02T03:05:00.000Z',
        'Log index',
        'liveness, face_match (attempt 1)',
      ])
        expect(auditText, s).toContain(s);
      // The transaction service learns it is ready from signet.ledger.pdf.sealed (once, from the outbox).
      const sealedMsg = await eventually(async () => {
        const m = await sealedEvents.next({ expires: 1000 });
        if (!m) return undefined;
        m.ack();
        const e = events.pdfSealed.message.decode(m.data);
        return e.reference === reference ? e : undefined;
      }, 30_000);
      expect(Number(sealedMsg.transactionId)).toBe(77);
      const file = join(dir, 'signed.pdf');
      writeFileSync(file, signed);

      const v = await pyhankoValidate(file, rootPem);
      expect(v.code, v.out).toBe(0);
      expect(v.out).toContain('The signature is judged VALID');
      expect(v.out).toContain('The signature covers the entire file');
      expect(v.out).toContain('This timestamp is backed by a time stamping authority');
      expect(v.out).toContain('Signet Dev TSA');
      const sig = await pdfsig(file);
      expect(sig.out.match(/Signature #\d+:/g)?.length, sig.out).toBe(1);
      expect(sig.out).toContain('Signature Type: ETSI.CAdES.detached');
      expect(sig.out).toContain('Signature Validation: Signature is Valid.');
      expect(sig.out).toContain('Total document signed');
      expect((await qpdfCheck(file)).code).toBe(0);

      // The original's pages first, unchanged, then the audit trail, with names as written.
      const out = await PDFDocument.load(signed);
      expect(out.getPageCount()).toBeGreaterThan(2);
      const text = await pdfText(file);
      for (const s of [
        'The original agreement',
        'Audit trail',
        'Jan Łukasiewicz',
        '王小明',
        'محمد',
        'श्रीमती प्रिया शर्मा',
        'דוד בן גוריון',
        'jan@example.com',
        'wang@example.com',
        doc.sha256,
        'Acme Sp. z o.o.',
        reference,
      ])
        expect(text).toContain(s);

      // cert.json is the ledger's proof bundle and verifies offline against the original document.
      writeFileSync(join(dir, 'cert.json'), await extractCertJson(file));
      writeFileSync(join(dir, 'document.pdf'), doc.pdf);
      const cli = await signetVerify(root, [
        join(dir, 'cert.json'),
        join(dir, 'document.pdf'),
        '--key',
        ledger.signer.verifierKey,
      ]);
      expect(cli.code, cli.out).toBe(0);

      // One changed byte (inside the signed range, a letter of the signature's reason) fails pyHanko.
      const at = signed.indexOf(Buffer.from(`Signet certificate ${reference}`));
      expect(at).toBeGreaterThan(0);
      const tampered = Buffer.from(signed);
      tampered[at] = 's'.charCodeAt(0);
      writeFileSync(join(dir, 'tampered.pdf'), tampered);
      const bad = await pyhankoValidate(join(dir, 'tampered.pdf'), rootPem);
      expect(bad.code, bad.out).not.toBe(0);
      expect(bad.out).not.toContain('The signature is judged VALID');
    } finally {
      await ledger.stop();
    }
  }, 180_000);

  it('gives up on a document its sealer cannot read: failed once, with the reason, pdf.failed published, never tried again', async () => {
    const ledger = await startLedger(await config(i.TSA_URL!), { logger });
    try {
      // Encrypted by qpdf: what the creation route now refuses, stored here as if it had slipped through.
      writeFileSync(join(dir, 'plain.pdf'), await documentPdf('Encrypted agreement'));
      execFileSync('qpdf', ['--encrypt', 'user', 'owner', '256', '--', join(dir, 'plain.pdf'), join(dir, 'enc.pdf')]);
      const pdf = readFileSync(join(dir, 'enc.pdf'));
      const key = `docs/${randomUUID()}.pdf`;
      await s3.putObject(buckets.BUCKET_DOCUMENTS, key, pdf);
      const reference = `TSP-TX-${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
      const ev = verifiedEvent(reference, { key, sha256: createHash('sha256').update(pdf).digest('hex') });
      await publishEvent(bus, events.transactionVerified, { eventId: ev.eventId, payload: ev.payload });

      const failedEvents = await bus.js.consumers.get(STREAM, failedConsumer);
      const failed = await eventually(async () => {
        const m = await failedEvents.next({ expires: 1000 });
        if (!m) return undefined;
        m.ack();
        const e = events.pdfSealFailed.message.decode(m.data);
        return e.reference === reference ? e : undefined;
      }, 60_000);
      expect(Number(failed.transactionId)).toBe(77);
      expect(failed.reason).toMatch(/cannot be read as a PDF by the sealer/);
      const refused = (await downloadSignedPdf(ledger.grpcPort, reference).catch((e: unknown) => e)) as {
        code?: number;
        details?: string;
      };
      expect(refused.code).toBe(9); // FAILED_PRECONDITION, with the reason
      expect(refused.details).toMatch(/could not be produced \(the document cannot be read/);
      // Counted once as failed, and never attempted again (a retry-every-pass loop would add errors).
      const count = async (result: string) =>
        Number(
          new RegExp(`signet_ledger_signed_pdf_seals_total\\{[^}]*result="${result}"[^}]*\\} (\\d+)`).exec(
            await ledger.metrics.registry.metrics(),
          )?.[1] ?? 0,
        );
      expect(await count('failed')).toBe(1);
      await new Promise((r) => setTimeout(r, 1500)); // several passes (LEDGER_SEAL_POLL_MS 200, retry 300 ms)
      expect(await count('failed')).toBe(1);
      expect(await count('error')).toBe(0);
    } finally {
      await ledger.stop();
    }
  }, 120_000);

  it('waits while no TSA answers, never sealing without time, and seals when one does', async () => {
    const down = `http://127.0.0.1:${await freePort()}/tsa`;
    const first = await startLedger(await config(down), { logger });
    const doc = await putDocument('Sealed later');
    const reference = `TSP-TX-${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const ev = verifiedEvent(reference, doc);
    try {
      await publishEvent(bus, events.transactionVerified, { eventId: ev.eventId, payload: ev.payload });
      await eventually(
        async () =>
          /signet_ledger_signed_pdf_seals_total\{[^}]*result="tsa_unavailable"[^}]*\} [1-9]/.test(
            await first.metrics.registry.metrics(),
          ),
        60_000,
      );
      const refused = await downloadSignedPdf(first.grpcPort, reference).catch((e: { code?: number }) => e);
      expect((refused as { code?: number }).code).toBe(9); // FAILED_PRECONDITION: not sealed yet
    } finally {
      await first.stop();
    }
    // A TSA answers (here: the next ledger process is configured with a live one): the PDF is sealed.
    const second = await startLedger(await config(`${down},${i.TSA_URL!}`), { logger });
    try {
      const signed = await sealedPdf(second.grpcPort, reference);
      writeFileSync(join(dir, 'later.pdf'), signed);
      const v = await pyhankoValidate(join(dir, 'later.pdf'), rootPem);
      expect(v.code, v.out).toBe(0);
      expect(readFileSync(join(dir, 'later.pdf')).length).toBeGreaterThan(doc.pdf.length);
    } finally {
      await second.stop();
    }
  }, 180_000);
});
