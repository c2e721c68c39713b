/**
 * The signers' field values in the signed PDF (issue 33 item 3): a transaction.verified event with
 * fields_json makes the ledger draw each value at its place as one update after the original
 * (revision 1 byte for byte), before the evidence; the sealed PDF still validates.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync, crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectBus,
  createClient,
  createLogger,
  createS3,
  ensureBuckets,
  Metrics,
  parseConfig,
  publishEvent,
  STREAM,
  type Bus,
} from '@signet/kit';
import { events, eventsV1, ledgerV1 } from '@signet/proto';
import { PDFDocument } from 'pdf-lib';
import { eventually, infra, testSecrets } from '../../../test/harness/services.js';
import { freePort } from '../../../test/harness/local-infra.js';
import { startLedger } from '../src/app.js';
import { ledgerConfigSchema } from '../src/config.js';
import { pyhankoValidate, qpdfCheck } from './fixtures/signed-pdf-checks.js';

const logger = createLogger('ledger-fields-stamp-test', 'warn');

/** A 120 × 40 RGBA PNG with a diagonal stroke (a re-encoded drawing as the transaction service sends it). */
function drawing(): Buffer {
  const [w, h] = [120, 40];
  const raw = Buffer.alloc((w * 4 + 1) * h);
  for (let x = 0; x < w; x++) raw.writeUInt32BE(0x000000ff, Math.floor((x * h) / w) * (w * 4 + 1) + 1 + x * 4);
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.from([0, 0, 0, w, 0, 0, 0, h, 8, 6, 0, 0, 0]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('field values stamped into the signed PDF', () => {
  const i = infra();
  const pki = i.DEV_PKI_DIR!;
  const db = `t_${randomUUID().slice(0, 8)}_ledger_fields`;
  const buckets = {
    BUCKET_DOCUMENTS: `t-docs-${randomUUID().slice(0, 8)}`,
    BUCKET_SIGNED: `t-signed-${randomUUID().slice(0, 8)}`,
  };
  const s3 = createS3({ ...i, S3_REGION: 'us-east-1' });
  let bus: Bus;
  let dir: string;

  beforeAll(async () => {
    if (!i.TSA_URL || !pki) throw new Error('no local TSA: the harness starts one with scripts/tsa.sh (run scripts/install.sh)');
    await ensureBuckets(s3, [buckets.BUCKET_DOCUMENTS]);
    bus = await connectBus(i.NATS_URL, 'test');
    // A fresh durable and no verified events of earlier files: this file's ledger reads only its own.
    await bus.jsm.consumers.delete(STREAM, 'ledger-transaction-verified').catch(() => undefined);
    await bus.jsm.streams.purge(STREAM, { filter: events.transactionVerified.subject });
    dir = mkdtempSync(join(tmpdir(), 'signet-fields-stamp-'));
  });
  afterAll(async () => {
    await bus?.nc.drain();
    rmSync(dir, { recursive: true, force: true });
  });

  it('draws each value at its place after the original, and the seal still covers the whole file', async () => {
    const ledger = await startLedger(
      parseConfig(ledgerConfigSchema, {
        ...i,
        ...testSecrets(),
        ...buckets,
        MONGO_DB: db,
        GRPC_PORT: String(await freePort()),
        OPS_PORT: String(await freePort()),
        LEDGER_SEAL_CERT: join(pki, 'certs/seal.pem'),
        LEDGER_SEAL_KEY: join(pki, 'keys/seal.key.pem'),
        LEDGER_TSA_URLS: i.TSA_URL!,
        LEDGER_SEAL_RETRY_MS: '300',
        LEDGER_SEAL_POLL_MS: '200',
      }),
      { logger },
    );
    try {
      const original = await PDFDocument.create();
      original.addPage([612, 792]).drawText('The agreement', { x: 72, y: 720, size: 14 });
      original.addPage([612, 792]);
      const pdf = Buffer.from(await original.save());
      const key = `docs/${randomUUID()}.pdf`;
      await s3.putObject(buckets.BUCKET_DOCUMENTS, key, pdf);
      const sha256 = createHash('sha256').update(pdf).digest('hex');
      const reference = `TSP-TX-${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
      const at = new Date().toISOString();
      const fieldsJson = JSON.stringify([
        { places: [{ page: 1, x: 72, y: 500, width: 200, height: 14 }], text: 'Analytical Engines' },
        { places: [{ page: 1, x: 72, y: 100, width: 150, height: 50 }], png: drawing().toString('base64') },
        { places: [{ page: 2, x: 300, y: 100, width: 80, height: 12 }], text: 'BB' },
        { places: [{ page: 2, x: 72, y: 250, width: 14, height: 14 }], checked: true },
      ]);
      const eventId = randomUUID();
      const payload = eventsV1.TransactionVerified.encode(
        eventsV1.TransactionVerified.fromPartial({
          eventId,
          occurredAt: at,
          transactionId: 78,
          reference,
          documentSha256: sha256,
          documentName: 'agreement.pdf',
          documentKey: key,
          issuerName: 'Acme',
          attestationType: 'signature',
          ownerId: 'u1',
          fieldsJson,
          signers: [
            {
              name: 'Ada',
              email: 'ada@example.com',
              verificationMode: 'liveness',
              assurance: 'live',
              verifiedAt: at,
              checks: ['liveness'],
            },
            {
              name: 'Bob',
              email: 'bob@example.com',
              verificationMode: 'liveness',
              assurance: 'live',
              verifiedAt: at,
              checks: ['liveness'],
            },
          ].map((s) => ({ ...s, videoSha256: 'a'.repeat(64), frameSha256: 'b'.repeat(64), referenceSha256: '' })),
        }),
      ).finish();
      await publishEvent(bus, events.transactionVerified, { eventId, payload });

      const client = createClient(ledgerV1.LedgerServiceClient, `127.0.0.1:${ledger.grpcPort}`, { metrics: new Metrics('test') });
      const download = async () => {
        const parts: Buffer[] = [];
        for await (const c of client.serverStream(
          ledgerV1.LedgerServiceService.getSignedPdf,
          { reference, auditTrail: false },
          { deadlineMs: 30_000 },
        ))
          parts.push(Buffer.from(c.data));
        return Buffer.concat(parts);
      };
      const signed = await eventually(() => download().catch(() => null), 90_000, 250);
      client.raw.close();

      // Revision 1 is the upload byte for byte; the values come after it, drawn where they were placed.
      expect(signed.subarray(0, pdf.length).equals(pdf)).toBe(true);
      const file = join(dir, 'signed.pdf');
      writeFileSync(file, signed);
      expect((await qpdfCheck(file)).code).toBe(0);
      const bbox = execFileSync('pdftotext', ['-bbox', '-cropbox', '-f', '1', '-l', '2', file, '-'], { encoding: 'utf8' });
      const word = (w: string) => {
        const m = new RegExp(`<word xMin="([\\d.]+)" yMin="([\\d.]+)" xMax="[\\d.]+" yMax="([\\d.]+)">${w}</word>`).exec(bbox);
        return m ? { x: Number(m[1]), top: Number(m[2]), bottom: Number(m[3]) } : null;
      };
      const engines = word('Analytical')!;
      expect(engines.x).toBeCloseTo(72, 0);
      // The box spans 792 - 514 = 278 to 292 from the top of the page.
      expect(engines.top).toBeGreaterThanOrEqual(277);
      expect(engines.bottom).toBeLessThanOrEqual(293);
      const bb = word('BB')!;
      expect(bb.x).toBeCloseTo(300, 0);
      expect(bbox.split('<page ')[2]).toContain('>BB</word>');
      // The drawing is on page 1, once.
      const images = execFileSync('pdfimages', ['-list', '-f', '1', '-l', '2', file], { encoding: 'utf8' });
      expect(images.split('\n').filter((l) => /^\s+1\s+\d+\s+image\s+120\s+40/.test(l))).toHaveLength(1);
      // The seal covers everything, the stamped values included.
      const v = await pyhankoValidate(file, join(pki, 'certs/root.pem'));
      expect(v.code, v.out).toBe(0);
      expect(v.out).toContain('The signature covers the entire file');
    } finally {
      await ledger.stop();
    }
  });
});
