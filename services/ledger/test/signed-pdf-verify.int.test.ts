/**
 * @signet/verify's signed-PDF check (what /verify runs on a dropped PDF, and `signet-verify signed.pdf`
 * offline) against real signed PDFs from a ledger sealing with the dev CA and the local TSA, witnessed
 * by the local litewitness, and against what an attacker makes of them: one changed byte, an update
 * appended after sealing (a page replaced), a substituted first revision, a seal by a self-made key, a
 * valid seal over cert.json of another transaction or over another document, a file that is not a
 * PDF, a PDF without a signature. The ledger seals at B-LT here (LEDGER_SEAL_LTV=on): the validation
 * data follows the seal as a DSS update. The upload stays revision 1 byte for byte (issue 32), also
 * one with object streams that already carries a pyHanko signature, which stays valid.
 */
import { createHash, createPublicKey, generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
import { formatVerifierKey, formatWitnessKey, parseVerifierKey, parseWitnessKey, witnessPolicy } from '@signet/verify';
import { parsePemCertificates, SignedPdfError, verifySignedPdf, type SignedPdfOptions } from '@signet/verify/signed-pdf';
import { PDFDocument } from 'pdf-lib';
import { eventually, infra, testSecrets } from '../../../test/harness/services.js';
import { freePort } from '../../../test/harness/local-infra.js';
import { startLedger } from '../src/app.js';
import { ledgerConfigSchema } from '../src/config.js';
import { CadesSigner, loadSealKey } from '../src/pdf/cades-signer.js';
import { preparePdf, sealPdf } from '../src/pdf/signed-pdf.js';
import { createTsaClient } from '../src/tsa/tsa.client.js';
import { tamperedPdfs } from './fixtures/tampers.js';
import { registerWitnessedLog } from '../../../test/harness/witness.js';
import {
  extractCertJson,
  pdfsig,
  pyhankoAdesOffline,
  pyhankoValidate,
  qpdfCheck,
  run,
  signetVerify,
} from './fixtures/signed-pdf-checks.js';

const logger = createLogger('ledger-signed-pdf-verify-test', 'warn');
const venvBin = (name: string) =>
  join(process.env.SIGNET_CACHE ?? join(process.env.HOME ?? '', '.cache/signet'), 'tsa-venv/bin', name);

async function documentPdf(text: string, useObjectStreams = false): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([300, 200]).drawText(text, { x: 20, y: 100, size: 12 });
  return Buffer.from(await doc.save({ useObjectStreams }));
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const root = join(import.meta.dirname, '../../..');

function verifiedEvent(reference: string, doc: { key: string; sha256: string }) {
  const eventId = randomUUID();
  const at = new Date().toISOString();
  const signer = { name: 'Jan Łukasiewicz', email: 'jan@example.com', verificationMode: 'liveness', assurance: 'live' };
  return {
    eventId,
    payload: eventsV1.TransactionVerified.encode(
      eventsV1.TransactionVerified.fromPartial({
        eventId,
        occurredAt: at,
        transactionId: 78,
        reference,
        documentSha256: doc.sha256,
        documentName: 'Umowa.pdf',
        documentKey: doc.key,
        issuerName: 'Acme Sp. z o.o.',
        attestationType: 'signature',
        ownerId: 'u1',
        signers: [{ ...signer, verifiedAt: at, videoSha256: 'a'.repeat(64), frameSha256: 'b'.repeat(64), referenceSha256: '' }],
      }),
    ).finish(),
  };
}

describe('verifySignedPdf: the seal, its time, its chain and the embedded proof of a signed PDF', () => {
  const i = infra();
  const pki = i.DEV_PKI_DIR!;
  const db = `t_${randomUUID().slice(0, 8)}_ledger_vpdf`;
  const buckets = {
    BUCKET_DOCUMENTS: `t-docs-${randomUUID().slice(0, 8)}`,
    BUCKET_SIGNED: `t-signed-${randomUUID().slice(0, 8)}`,
  };
  const s3 = createS3({ ...i, S3_REGION: 'us-east-1' });
  let bus: Bus;
  let dir: string;
  let ledger: Awaited<ReturnType<typeof startLedger>>;
  let opts: SignedPdfOptions;
  const signed: Record<'a' | 'b' | 'c', { reference: string; pdf: Buffer; bundleJson: string; original: Buffer }> = {} as never;
  // The log's own key and origin, registered with the local witness (it remembers each origin's size).
  const origin = `signet.test/vpdf-${randomUUID().slice(0, 8)}`;
  const logKey = generateKeyPairSync('ed25519').privateKey;
  const logVkey = formatVerifierKey(origin, createPublicKey(logKey).export({ format: 'der', type: 'spki' }).subarray(12));

  async function sealOne(name: 'a' | 'b' | 'c', original?: Buffer) {
    const pdf = original ?? (await documentPdf(`Agreement ${name} ${randomUUID()}`));
    const key = `docs/${randomUUID()}.pdf`;
    await s3.putObject(buckets.BUCKET_DOCUMENTS, key, pdf);
    const reference = `TSV-TX-${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const ev = verifiedEvent(reference, { key, sha256: createHash('sha256').update(pdf).digest('hex') });
    await publishEvent(bus, events.transactionVerified, { eventId: ev.eventId, payload: ev.payload });
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
    try {
      const out = await eventually(() => download().catch(() => null), 60_000, 250);
      writeFileSync(join(dir, `${name}.pdf`), out);
      signed[name] = { reference, pdf: out, bundleJson: await extractCertJson(join(dir, `${name}.pdf`)), original: pdf };
    } finally {
      client.raw.close();
    }
  }

  /** A PDF like the ledger's for `a`, with `bundleJson` embedded, sealed by this key (and the local TSA). */
  async function sealAs(certPem: string, keyPem: string, bundleJson: string): Promise<Buffer> {
    const bundle = JSON.parse(signed.a.bundleJson) as { certificate: never; leaf_index: number; tree_size: number };
    const sealedAt = new Date();
    const prepared = await preparePdf({
      document: await documentPdf('Another agreement'),
      documentName: 'Umowa.pdf',
      certificate: bundle.certificate,
      signerEmails: ['jan@example.com'],
      leafIndex: bundle.leaf_index,
      treeSize: bundle.tree_size,
      origin: 'x',
      verifyUrl: 'http://localhost/verify',
      bundleJson,
      sealedAt,
      sealName: 'Seal',
    });
    return sealPdf(prepared, new CadesSigner(await loadSealKey(certPem, keyPem), createTsaClient([i.TSA_URL!])), sealedAt);
  }

  beforeAll(async () => {
    if (!i.TSA_URL || !pki) throw new Error('no local TSA: the harness starts one with scripts/tsa.sh (run scripts/install.sh)');
    await ensureBuckets(s3, [buckets.BUCKET_DOCUMENTS]);
    bus = await connectBus(i.NATS_URL, 'test');
    await bus.jsm.consumers.delete(STREAM, 'ledger-transaction-verified').catch(() => undefined);
    await bus.jsm.streams.purge(STREAM, { filter: events.transactionVerified.subject });
    dir = mkdtempSync(join(tmpdir(), 'signet-verify-pdf-'));
    if (!i.WITNESS_URL || !i.WITNESS_VERIFIER_KEY || !i.WITNESS_DB) throw new Error('no local witness: the harness starts one');
    registerWitnessedLog(i.WITNESS_DB, origin, logVkey);
    ledger = await startLedger(
      parseConfig(ledgerConfigSchema, {
        ...i,
        ...testSecrets(),
        ...buckets,
        MONGO_DB: db,
        GRPC_PORT: String(await freePort()),
        OPS_PORT: String(await freePort()),
        LEDGER_SEAL_CERT: join(pki, 'certs/seal.pem'),
        LEDGER_SEAL_KEY: join(pki, 'keys/seal.key.pem'),
        LEDGER_TSA_URLS: i.TSA_URL,
        LEDGER_SEAL_POLL_MS: '200',
        LEDGER_SEAL_LTV: 'on',
        LEDGER_ORIGIN: origin,
        LEDGER_SIGNING_KEY: logKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
        LEDGER_WITNESSES: JSON.stringify([{ url: i.WITNESS_URL, key: i.WITNESS_VERIFIER_KEY }]),
        LEDGER_COSIGN_POLL_MS: '200',
      }),
      { logger },
    );
    opts = {
      trustRoots: parsePemCertificates(readFileSync(join(pki, 'certs/root.pem'), 'utf8')),
      logKeys: [{ keys: [parseVerifierKey(ledger.signer.verifierKey)], log: 'live' }],
    };
    await sealOne('a');
    await sealOne('b');
    // An upload with object streams and an xref stream, already signed by pyHanko (the dev seal key).
    writeFileSync(join(dir, 'c-unsigned.pdf'), await documentPdf(`Agreement c ${randomUUID()}`, true));
    const pre = await run(venvBin('pyhanko'), [
      'sign',
      'addsig',
      '--field',
      'Sig1',
      'pemder',
      '--key',
      join(pki, 'keys/seal.key.pem'),
      '--cert',
      join(pki, 'certs/seal.pem'),
      '--no-pass',
      join(dir, 'c-unsigned.pdf'),
      join(dir, 'c-original.pdf'),
    ]);
    if (pre.code !== 0) throw new Error(`pyhanko addsig: ${pre.out}`);
    await sealOne('c', readFileSync(join(dir, 'c-original.pdf')));
  }, 240_000);
  afterAll(async () => {
    await ledger?.stop();
    await bus?.nc.drain();
    if (dir && !process.env.KEEP_TEST_DIR) rmSync(dir, { recursive: true, force: true });
  });

  it('accepts the ledger’s signed PDF: every check passes, naming the certificate, the seal and the time', async () => {
    const r = await verifySignedPdf(signed.a.pdf, opts);
    expect(r.checks.filter((c) => !c.ok)).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.reference).toBe(signed.a.reference);
    expect(r.log).toBe('live');
    expect(r.signer).toBe('Signet Dev Document Seal');
    expect(Math.abs(Date.parse(r.timestamp!) - Date.now())).toBeLessThan(120_000);
    expect(r.checks.map((c) => c.name)).toEqual(
      expect.arrayContaining([
        'coverage',
        'integrity',
        'timestamp',
        'certificate',
        'evidence inclusion',
        'evidence seal',
        'consistency',
      ]),
    );
    expect(r.checks.find((c) => c.name === 'coverage')!.detail).toContain('covers the whole file');
  });

  it('seals at B-LT: a DSS update after the seal lets pyHanko validate offline, which the B-T revision alone does not', async () => {
    const rootPem = join(pki, 'certs/root.pem');
    const file = join(dir, 'a.pdf');
    const m = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)/.exec(signed.a.pdf.toString('latin1'))!;
    const end = Number(m[3]) + Number(m[4]);
    expect(end).toBeLessThan(signed.a.pdf.length);
    expect(signed.a.pdf.subarray(end).toString('latin1')).toMatch(/\/DSS \d+ 0 R/);
    writeFileSync(join(dir, 'a-bt.pdf'), signed.a.pdf.subarray(0, end));

    const v = await pyhankoValidate(file, rootPem);
    expect(v.code, v.out).toBe(0);
    expect(v.out).toContain('The signature is judged VALID');
    expect(v.out).toContain('All modifications relate to signature maintenance');
    // No network: the CRLs of the seal's and the TSA's certificates can only come from the DSS.
    const lt = await pyhankoAdesOffline(file, rootPem);
    expect(lt.code, lt.out).toBe(0);
    expect(lt.out).toContain('The signature is judged VALID');
    expect(lt.out).toContain('The TSA certificate is trusted');
    const bt = await pyhankoAdesOffline(join(dir, 'a-bt.pdf'), rootPem);
    expect(bt.code, bt.out).not.toBe(0);
    expect(bt.out).toContain('no revocation information');

    const sig = await pdfsig(file);
    expect(sig.out.match(/Signature #\d+:/g)?.length, sig.out).toBe(1);
    expect(sig.out).toContain('Signature Validation: Signature is Valid.');
    expect((await qpdfCheck(file)).code).toBe(0);
  }, 120_000);

  it('refuses one changed byte: in the signed bytes the integrity check fails, in the signature the seal cannot be read or fails', async () => {
    const inText = Buffer.from(signed.a.pdf);
    const at = inText.indexOf(Buffer.from(`Signet certificate ${signed.a.reference}`));
    inText[at] = 's'.charCodeAt(0);
    const r = await verifySignedPdf(inText, opts);
    expect(r.ok).toBe(false);
    expect(r.checks.find((c) => c.name === 'integrity')).toMatchObject({
      ok: false,
      detail: expect.stringContaining('changed after sealing'),
    });

    const inSig = Buffer.from(signed.a.pdf);
    const contents = inSig.indexOf('/Contents <') + '/Contents <'.length;
    inSig[contents + 600] = inSig[contents + 600] === 0x30 ? 0x31 : 0x30;
    const s = await verifySignedPdf(inSig, opts).catch((e: unknown) => e);
    if (!(s instanceof SignedPdfError)) expect((s as { ok: boolean }).ok).toBe(false);
  });

  it('flags an update appended after sealing (pyHanko adds a form field): the seal no longer covers the file', async () => {
    const out = join(dir, 'a-field.pdf');
    const add = await run(venvBin('pyhanko'), ['sign', 'addfields', '--field', '1/10,10,110,60/Late', join(dir, 'a.pdf'), out]);
    expect(add.code, add.out).toBe(0);
    const updated = readFileSync(out);
    expect(updated.subarray(0, signed.a.pdf.length).equals(signed.a.pdf)).toBe(true); // an incremental update
    const r = await verifySignedPdf(updated, opts);
    expect(r.ok).toBe(false);
    expect(r.checks.find((c) => c.name === 'coverage')).toMatchObject({
      ok: false,
      detail: expect.stringContaining('does not cover the whole file'),
    });
    expect(r.checks.find((c) => c.name === 'integrity')!.ok).toBe(true);
  });

  it('calls a seal by a self-made key untrusted, though intact and timestamped', async () => {
    const key = join(dir, 'own.key.pem');
    const cert = join(dir, 'own.pem');
    const mk = await run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      '/CN=Signet Dev Document Seal',
    ]);
    expect(mk.code, mk.out).toBe(0);
    const pdf = await sealAs(readFileSync(cert, 'utf8'), readFileSync(key, 'utf8'), signed.a.bundleJson);
    const r = await verifySignedPdf(pdf, opts);
    expect(r.ok).toBe(false);
    expect(r.checks.find((c) => c.name === 'integrity')!.ok).toBe(true);
    expect(r.checks.find((c) => c.name === 'timestamp')!.ok).toBe(true);
    expect(r.checks.find((c) => c.name === 'certificate')).toMatchObject({
      ok: false,
      detail: expect.stringContaining('not trusted'),
    });
  });

  it('calls a valid seal over cert.json of another transaction inconsistent', async () => {
    const pdf = await sealAs(
      readFileSync(join(pki, 'certs/seal.pem'), 'utf8'),
      readFileSync(join(pki, 'keys/seal.key.pem'), 'utf8'),
      signed.b.bundleJson,
    );
    const r = await verifySignedPdf(pdf, opts);
    expect(r.ok).toBe(false);
    expect(r.reference).toBe(signed.b.reference);
    for (const name of ['coverage', 'integrity', 'timestamp', 'certificate', 'evidence inclusion'])
      expect(r.checks.find((c) => c.name === name)!.ok, name).toBe(true);
    expect(r.checks.find((c) => c.name === 'consistency')).toMatchObject({
      ok: false,
      detail: expect.stringContaining(`certificate ${signed.a.reference}, but cert.json carries ${signed.b.reference}`),
    });
  });

  it('calls the file not a signed PDF when it is not a PDF or carries no signature', async () => {
    await expect(verifySignedPdf(Buffer.from('GIF89a junk'), opts)).rejects.toThrow(SignedPdfError);
    await expect(verifySignedPdf(await documentPdf('unsigned'), opts)).rejects.toThrow(/no signature/);
  });

  it('keeps the upload as revision 1: its bytes open the signed PDF, their SHA-256 is the certified one, and the check says so', async () => {
    for (const name of ['a', 'c'] as const) {
      const { pdf, original, bundleJson } = signed[name];
      expect(pdf.subarray(0, original.length).equals(original), name).toBe(true);
      const certified = (JSON.parse(bundleJson) as { certificate: { document_sha256: string } }).certificate.document_sha256;
      expect(sha256(pdf.subarray(0, original.length))).toBe(certified);
      const r = await verifySignedPdf(pdf, opts);
      expect(
        r.checks.filter((c) => !c.ok),
        name,
      ).toEqual([]);
      expect(r.originalLength).toBe(original.length);
      expect(r.checks.find((c) => c.name === 'document')!.detail).toContain(certified);
    }
  });

  it('embeds a checkpoint the witness cosigned: the witness check passes on the PDF alone, and fails for another witness', async () => {
    const witnessed = await verifySignedPdf(signed.a.pdf, { ...opts, witnesses: witnessPolicy([i.WITNESS_VERIFIER_KEY!]) });
    expect(witnessed.checks.find((c) => c.name === 'evidence witnesses')).toMatchObject({ ok: true });
    expect(witnessed.ok).toBe(true);
    // a cosignature/v1 key of the same name that is not the witness's
    const other = formatWitnessKey(parseWitnessKey(i.WITNESS_VERIFIER_KEY!).name, Buffer.alloc(32, 9));
    const unwitnessed = await verifySignedPdf(signed.a.pdf, { ...opts, witnesses: witnessPolicy([other]) });
    expect(unwitnessed.ok).toBe(false);
    expect(unwitnessed.checks.find((c) => c.name === 'evidence witnesses')!.ok).toBe(false);
  });

  it('a PDF that already carried a signature: both stay valid for pyHanko and pdfsig, the earlier one over its own revision', async () => {
    const rootPem = join(pki, 'certs/root.pem');
    const file = join(dir, 'c.pdf');
    // Without the incremental-update analysis (pyHanko's default policy counts pages added after a signature
    // as a modification of any kind): each signature is intact, sound and trusted.
    const each = await run(venvBin('pyhanko'), [
      'sign',
      'validate',
      '--trust',
      rootPem,
      '--trust-replace',
      '--no-revocation-check',
      '--no-diff-analysis',
      '--pretty-print',
      file,
    ]);
    expect(each.code, each.out).toBe(0);
    expect(each.out.match(/The signature is judged VALID/g)?.length, each.out).toBe(2);
    expect(each.out).toContain('Field 1: Sig1');
    expect(each.out).toContain('Field 2: Signet seal');
    // With it: the seal is VALID and everything after it is signature maintenance (the DSS).
    const full = await pyhankoValidate(file, rootPem);
    const seal = full.out.slice(full.out.indexOf('Field 2: Signet seal'));
    expect(seal).toContain('All modifications relate to signature maintenance');
    expect(seal).toContain('The signature is judged VALID');
    const sig = await pdfsig(file);
    expect(sig.out.match(/Signature #\d+:/g)?.length, sig.out).toBe(2);
    expect(sig.out.match(/Signature Validation: Signature is Valid\./g)?.length, sig.out).toBe(2);
    expect((await qpdfCheck(file)).code).toBe(0);
  }, 120_000);

  it('signet-verify signed.pdf passes offline with the witness and fails, saying why, on each tamper', async () => {
    const rootPem = join(pki, 'certs/root.pem');
    const args = (file: string) => [file, '--key', logVkey, '--roots', rootPem, '--witness', i.WITNESS_VERIFIER_KEY!];
    const good = await signetVerify(root, args(join(dir, 'a.pdf')));
    expect(good.code, good.out).toBe(0);
    for (const line of [
      'PASS coverage',
      'PASS integrity',
      'PASS timestamp',
      'PASS certificate',
      'PASS document',
      'PASS evidence witnesses',
    ])
      expect(good.out).toContain(line);
    expect(good.out).toContain(`VALID certificate ${signed.a.reference}`);

    const { pdf, original } = signed.a;
    // revision 1 substituted: another document of the same length in its place
    const swap = (o: Buffer) => Buffer.from(o.toString('latin1').replace('/ModDate (D:2', '/ModDate (D:1'), 'latin1');
    const cases = (await tamperedPdfs(pdf, original, signed.a.reference, swap)).map(
      (t) => [t.name, t.pdf, t.name === 'replaced' ? [...t.expected, 'an update changes object'] : t.expected] as const,
    );
    for (const [name, bytes, expected] of cases) {
      writeFileSync(join(dir, `tamper-${name}.pdf`), bytes);
      const r = await signetVerify(root, args(join(dir, `tamper-${name}.pdf`)));
      expect(r.code, `${name}: ${r.out}`).toBe(1);
      for (const e of expected) expect(r.out, name).toContain(e);
      expect(r.out).toContain('NOT VALID');
    }
    // a usage error: a signed PDF without the roots to trust
    const noRoots = await signetVerify(root, [join(dir, 'a.pdf'), '--key', logVkey]);
    expect(noRoots.code).toBe(2);
    expect(noRoots.out).toContain('--roots');
  }, 120_000);

  it('calls a valid seal over another document than the certified one a failed document check', async () => {
    // sealAs puts cert.json of `a` on a fresh document ('Another agreement'): sealed by the operator's key.
    const pdf = await sealAs(
      readFileSync(join(pki, 'certs/seal.pem'), 'utf8'),
      readFileSync(join(pki, 'keys/seal.key.pem'), 'utf8'),
      signed.a.bundleJson,
    );
    const r = await verifySignedPdf(pdf, opts);
    expect(r.ok).toBe(false);
    for (const name of ['integrity', 'timestamp', 'certificate', 'evidence inclusion', 'consistency'])
      expect(r.checks.find((c) => c.name === name)!.ok, name).toBe(true);
    expect(r.checks.find((c) => c.name === 'document')).toMatchObject({ ok: false, detail: expect.stringContaining('replaced') });
  });
});
