/**
 * Issue 32's first "Done when", as one test through the gateway: a live transaction of an
 * organisation and a signer named in Latin with diacritics, Greek, Cyrillic, Arabic, Hebrew,
 * Devanagari, Chinese, Japanese and "→", signed through a real ceremony (the generated genuine
 * capture), sealed by a witnessed log at PAdES B-LTA. Then, with tools nobody here wrote and the
 * keys the public route lists:
 * - the SHA-256 of the signed PDF's first revision is the certificate's `document_sha256`;
 * - pyHanko's LTA validation (offline, no network) passes with a document timestamp as evidence record;
 * - `signet-verify signed.pdf --key … --witness … --roots …` passes on the PDF alone and fails on
 *   a changed byte, an appended update and a substituted first revision;
 * - every name is read back by pdftotext and inked on the pages pdftoppm renders.
 */
import { createHash, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatVerifierKey } from '@signet/verify';
import { createAccount, type Account } from '../harness/accounts.js';
import { freePort } from '../harness/local-infra.js';
import { eventually, infra, startServices } from '../harness/services.js';
import { registerWitnessedLog, startWitness, type WitnessInfo } from '../harness/witness.js';
import { send } from '../support/ceremony-helpers.js';
import { mailsTo } from '../support/identity-helpers.js';
import { awaitOutcome, consentAndCapture, type Gateway } from '../support/predicted-capture.js';
import { tinyPdf } from '../fixtures/ceremony-media.js';
import { makeGenuineCapture } from '../../services/biometrics/test/corpus/make-corpus.js';
import { extractCertJson, ltaValidate, pdfText, signetVerify } from '../../services/ledger/test/fixtures/signed-pdf-checks.js';
import { expectNamesRendered, normal } from '../../services/ledger/test/fixtures/glyph-checks.js';
import { tamperedPdfs } from '../../services/ledger/test/fixtures/tampers.js';

const root = join(import.meta.dirname, '../..');
const SEED = 'evidence-standalone-seed-v1';
/** Right-to-left (Hebrew, Arabic), "→", then left-to-right (Latin with diacritics): poppler orders the two runs its own way. */
const ORGANISATION = 'דוד شركة النور → Zoë Šťastná-Łukasiewicz';
const SIGNER = 'Αλέξανδρος Пётр श्रीमती प्रिया 王小明 山田たろう';

type Key = { role: 'log' | 'witness'; log: string; verifier_key: string; current: boolean };

describe('evidence that stands alone: a real ceremony in every script, sealed B-LTA and witnessed', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  let dir: string;
  let witness: WitnessInfo;
  let ownWitness: Awaited<ReturnType<typeof startWitness>> | undefined;
  const pki = infra().DEV_PKI_DIR ?? '';
  const origin = `signet.test/evidence-${randomBytes(4).toString('hex')}`;
  const logKey = generateKeyPairSync('ed25519');
  const pdf = tinyPdf(`Signet evidence ${randomUUID()}`);
  const signerEmail = `evidence-${randomUUID().slice(0, 8)}@example.com`;
  const ip = { 'x-forwarded-for': '10.77.0.9', 'user-agent': 'SignetE2E/1.0 (evidence)' };

  beforeAll(async () => {
    if (!infra().TSA_URL || !pki)
      throw new Error('no local TSA: the harness starts one with scripts/tsa.sh (run scripts/install.sh)');
    dir = mkdtempSync(join(tmpdir(), 'signet-evidence-e2e-'));
    const i = infra();
    if (i.WITNESS_URL && i.WITNESS_VERIFIER_KEY && i.WITNESS_DB)
      witness = { url: i.WITNESS_URL, verifierKey: i.WITNESS_VERIFIER_KEY, db: i.WITNESS_DB };
    else {
      ownWitness = await startWitness({ dir: join(dir, 'w'), port: await freePort(), name: 'witness.signet.test', logs: dir });
      witness = ownWitness.info;
    }
    const logPub = logKey.publicKey.export({ format: 'der', type: 'spki' }).subarray(12);
    registerWitnessedLog(witness.db, origin, formatVerifierKey(origin, logPub));
    const rootPem = join(pki, 'certs/root.pem');
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'biometrics', 'ledger', 'gateway'], {
      env: {
        CHALLENGE_TEST_SEED: SEED,
        LEDGER_ORIGIN: origin,
        LEDGER_SIGNING_KEY: logKey.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
        LEDGER_WITNESSES: JSON.stringify([{ url: witness.url, key: witness.verifierKey }]),
        LEDGER_WITNESS_QUORUM: '1',
        LEDGER_COSIGN_POLL_MS: '250',
        // The seal as the local stack makes it (scripts/stack.ts): B-LT, then a document timestamp (B-LTA)
        // covering the CA certificates up to the root.
        LEDGER_SEAL_CERT: join(pki, 'certs/seal.pem'),
        LEDGER_SEAL_KEY: join(pki, 'keys/seal.key.pem'),
        LEDGER_TSA_URLS: i.TSA_URL!,
        LEDGER_SEAL_LTV: 'on',
        LEDGER_SEAL_LTA: 'on',
        LEDGER_SEAL_CA_CERTS: rootPem,
        VERIFY_TRUST_ROOTS: rootPem,
      },
    });
    acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { orgName: ORGANISATION, tag: 'evidence' });
  }, 300_000);
  afterAll(async () => {
    await stack?.stop();
    await ownWitness?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('revision 1 is the certified document, pyHanko validates B-LTA, signet-verify passes with the witness and fails each tamper, every name is on the pages', async () => {
    const owner = { 'x-api-key': acct.apiKey };
    const { reference: photo } = await makeGenuineCapture(join(dir, 'ref'), null);
    const created = await send(stack.gatewayUrl, 'POST', '/api/transactions', {
      headers: owner,
      parts: [
        { name: 'signer_name', value: SIGNER },
        { name: 'signer_email', value: signerEmail },
        { name: 'required_assurance', value: 'recorded' },
        { name: 'document', filename: 'Contract.pdf', contentType: 'application/pdf', data: pdf },
        { name: 'reference', filename: 'reference.jpg', contentType: 'image/jpeg', data: readFileSync(photo) },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
    const { id, token, reference } = created.body as { id: number; token: string; reference: string };

    // The ceremony, as a signer does it: the link from the mail, consent, the capture.
    await eventually(async () => ((await mailsTo(signerEmail)).length ? true : undefined), 30_000);
    const gateway: Gateway = (method, path, init) => send(stack.gatewayUrl, method, path, init);
    const cap = await consentAndCapture({ gateway, id, token, seed: SEED, dir, headers: ip });
    expect(cap.status, JSON.stringify(cap.body)).toBeLessThan(300);
    const detail = await awaitOutcome(gateway, id, owner, 300_000);
    expect(detail.status, `the verdict did not pass: ${JSON.stringify(detail)}`).toBe('ledger_issued');
    // Sealed once a checkpoint covering it is cosigned, then B-LT and the document timestamp (B-LTA).
    const signedUrl = `${stack.gatewayUrl}/api/transactions/${id}/signed.pdf`;
    let last = '';
    const signed = await eventually(
      async () => {
        const r = await fetch(signedUrl, { headers: owner });
        if (r.status === 200) return Buffer.from(await r.arrayBuffer());
        last = `${r.status} ${await r.text()}`;
        return undefined;
      },
      180_000,
      1000,
    ).catch((err: Error) => {
      throw new Error(`no signed PDF (last answer: ${last}): ${err.message}`);
    });
    const file = join(dir, 'signed.pdf');
    writeFileSync(file, signed);

    // 1. Revision 1 (up to the first %%EOF and its line end) hashes to the certified document_sha256.
    const cert = JSON.parse(await extractCertJson(file)) as { certificate: { document_sha256: string; reference: string } };
    expect(cert.certificate.reference).toBe(reference);
    const eof = signed.indexOf('%%EOF') + 5;
    const end = eof + (/^\r?\n/.exec(signed.toString('latin1', eof, eof + 2))?.[0].length ?? 0);
    expect(createHash('sha256').update(signed.subarray(0, end)).digest('hex')).toBe(cert.certificate.document_sha256);
    expect(cert.certificate.document_sha256).toBe(createHash('sha256').update(pdf).digest('hex'));

    // 2. PAdES B-LTA: pyHanko's LTA validation offline takes the document timestamp as the evidence record.
    const rootPem = join(pki, 'certs/root.pem');
    const lta = await ltaValidate(file, rootPem);
    expect(lta.code, lta.out).toBe(0);
    expect(lta.results).toHaveLength(1);
    expect(lta.results[0]).toMatchObject({ valid: true, indication: 'AdESPassed.OK' });
    expect(lta.results[0]!.document_timestamps).toBeGreaterThanOrEqual(1);
    expect(lta.results[0]!.evidence_record).not.toBeNull();

    // 3. The keys from the public route; the PDF alone passes offline, witness included, and each tamper fails.
    const keys = ((await (await fetch(`${stack.gatewayUrl}/api/ledger/keys`)).json()) as { keys: Key[] }).keys;
    const logVkey = keys.find((k) => k.role === 'log' && k.log === 'live' && k.current)!.verifier_key;
    const witnessVkey = keys.find((k) => k.role === 'witness' && k.log === 'live')!.verifier_key;
    expect(witnessVkey).toBe(witness.verifierKey);
    const args = (path: string) => [path, '--key', logVkey, '--witness', witnessVkey, '--roots', rootPem];
    const good = await signetVerify(root, args(file));
    expect(good.code, good.out).toBe(0);
    for (const line of ['PASS coverage', 'PASS integrity', 'PASS timestamp', 'PASS document', 'PASS evidence witnesses'])
      expect(good.out).toContain(line);
    const swap = (o: Buffer) => Buffer.from(o.toString('latin1').replace('Signet evidence ', 'Signet evidenc_ '), 'latin1');
    for (const t of await tamperedPdfs(signed, pdf, reference, swap)) {
      writeFileSync(join(dir, `tamper-${t.name}.pdf`), t.pdf);
      const r = await signetVerify(root, args(join(dir, `tamper-${t.name}.pdf`)));
      expect(r.code, `${t.name}: ${r.out}`).toBe(1);
      for (const e of t.expected) expect(r.out, t.name).toContain(e);
    }

    // 4. Every name, read back and inked on the rendered pages (the audit trail carries them).
    expectNamesRendered(file, [...ORGANISATION.split(' → '), SIGNER], dir);
    expect(normal(await pdfText(file))).toContain('→');
  }, 900_000);
});
