/**
 * The certificate log end to end, through the gateway only: a verified transaction becomes a sealed
 * certificate; GET /api/verify answers; the evidence bundle and the public key verify offline with the
 * signet-verify CLI (a separate process) and the PDF; one changed byte makes it fail. Also the
 * checkpoint, consistency and public-key routes, their bad input, and the /verify page in Chromium.
 */
import { spawn } from 'node:child_process';
import { createHash, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBus, publishEvent, type Bus } from '@signet/kit';
import { events, eventsV1 } from '@signet/proto';
import { eventually, infra, startServices } from '../harness/services.js';
import { formatVerifierKey, parseVerifierKey, verifyCheckpoint, verifyConsistency } from '@signet/verify';

const root = join(import.meta.dirname, '../..');
const CLI = join(root, 'packages/verify/src/cli.ts');

/** Runs signet-verify as its own process, as a user would. */
function signetVerify(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--conditions=@signet/source', '--import', 'tsx', CLI, ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

/** For callbacks that run in the page (its CSP forbids evaluating strings); test/ has no DOM types. */
type PageGlobal = { document: { getElementById(id: string): { textContent: string | null } | null } };

const reference = () => `LED-TX-${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

/** A small but real-looking PDF: what matters is that its SHA-256 is the certified one. */
function pdfBytes(): Buffer {
  return Buffer.concat([Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'), randomBytes(4096), Buffer.from('\n%%EOF\n')]);
}

async function publishVerified(bus: Bus, ref: string, documentSha256: string) {
  const eventId = randomUUID();
  await publishEvent(bus, events.transactionVerified, {
    eventId,
    payload: eventsV1.TransactionVerified.encode(
      eventsV1.TransactionVerified.fromPartial({
        eventId,
        occurredAt: new Date().toISOString(),
        transactionId: 11,
        reference: ref,
        documentSha256,
        issuerName: 'Acme Ltd',
        attestationType: 'signature',
        ownerId: 'u1',
        signers: [
          {
            name: 'Ada Lovelace',
            email: 'ada@example.com',
            verificationMode: 'biometric',
            assurance: 'live',
            videoSha256: 'a'.repeat(64),
            frameSha256: 'b'.repeat(64),
            referenceSha256: 'c'.repeat(64),
            verifiedAt: '2026-11-25T10:00:00.000Z',
          },
          {
            name: 'Charles Babbage',
            email: 'cb@example.org',
            verificationMode: 'liveness',
            assurance: 'live',
            videoSha256: 'd'.repeat(64),
            frameSha256: 'e'.repeat(64),
            referenceSha256: '',
            verifiedAt: '2026-11-25T10:05:00.000Z',
          },
        ],
      }),
    ).finish(),
  });
}

describe('sealed certificates, verified online and offline', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let bus: Bus;
  let dir: string;
  const get = (path: string, init?: RequestInit) => fetch(`${stack.gatewayUrl}${path}`, init);
  const json = async <T = Record<string, unknown>>(path: string) => {
    const res = await get(path);
    expect(res.status, path).toBe(200);
    return (await res.json()) as T;
  };

  beforeAll(async () => {
    stack = await startServices(['ledger', 'gateway']);
    bus = await connectBus(infra().NATS_URL, 'test');
    dir = mkdtempSync(join(tmpdir(), 'signet-ledger-e2e-'));
  });
  afterAll(async () => {
    await bus?.nc.drain();
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const ref = reference();
  const pdf = pdfBytes();
  const sha = createHash('sha256').update(pdf).digest('hex');
  const prefix = sha.slice(0, 16);

  it('issues, seals and verifies a certificate; the CLI accepts it with the PDF and rejects one changed byte', async () => {
    await publishVerified(bus, ref, sha);
    const verified = await eventually(async () => {
      const res = await get(`/api/verify/${ref}/${prefix}`);
      return res.status === 200 ? ((await res.json()) as Record<string, unknown>) : undefined;
    });
    expect(verified).toMatchObject({
      valid: true,
      reference: ref,
      signer_name: 'Ada Lovelace',
      issuer_name: 'Acme Ltd',
      verified_at: '2026-11-25T10:05:00.000Z',
      document_sha256_prefix: prefix,
      verification_mode: 'biometric',
    });
    const seal = verified.ledger_seal as string;
    expect(seal.length).toBeLessThanOrEqual(200);
    expect(seal).toMatch(/^v1\.[0-9a-f]{8}\.\d+\.[A-Za-z0-9_-]{86}$/);

    // The evidence a user saves, and the key they obtain once.
    const res = await get(`/api/ledger/proof/${ref}?hash=${prefix}&download=1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${ref}.cert.json"`);
    const bundle = (await res.json()) as Record<string, unknown> & { certificate: Record<string, unknown> };
    expect(bundle).toMatchObject({ format: 'signet-certificate-bundle/v2', ledger_seal: seal });
    expect(bundle.certificate).toMatchObject({ reference: ref, document_sha256: sha });
    // Masked emails and commitments only: no address, no face data.
    expect(JSON.stringify(bundle)).not.toContain('ada@example.com');
    const key = await json<{ verifier_key: string; key_id: string; origin: string; public_key: string }>(
      '/api/ledger/public-key',
    );
    expect(key.verifier_key).toBe(formatVerifierKey(key.origin, Buffer.from(key.public_key, 'base64')));
    expect(parseVerifierKey(key.verifier_key).keyId.toString('hex')).toBe(key.key_id);

    const certPath = join(dir, 'cert.json');
    const pdfPath = join(dir, 'document.pdf');
    const keyPath = join(dir, 'ledger.vkey');
    writeFileSync(certPath, JSON.stringify(bundle, null, 2));
    writeFileSync(pdfPath, pdf);
    writeFileSync(keyPath, `${key.verifier_key}\n`);

    const ok = await signetVerify([certPath, pdfPath, '--key', key.verifier_key]);
    expect(ok.err).toBe('');
    expect(ok.out).toContain(`VALID certificate ${ref}`);
    for (const c of ['bundle', 'leaf', 'checkpoint', 'inclusion', 'seal', 'document']) expect(ok.out).toContain(`PASS ${c}`);
    expect(ok.code).toBe(0);
    expect((await signetVerify([certPath, pdfPath, '--key', keyPath])).code).toBe(0); // the key from a file

    // One byte of the PDF changed.
    const changed = Buffer.from(pdf);
    changed[100] = changed[100]! ^ 0x01;
    writeFileSync(join(dir, 'changed.pdf'), changed);
    const bad = await signetVerify([certPath, join(dir, 'changed.pdf'), '--key', key.verifier_key]);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('FAIL document');
    expect(bad.out).toContain('NOT VALID');

    // The certificate edited (a signer renamed): the leaf no longer leads to the signed root.
    const edited = { ...bundle, certificate: { ...bundle.certificate, issuer_name: 'Someone Else Ltd' } };
    writeFileSync(join(dir, 'edited.json'), JSON.stringify(edited));
    const tampered = await signetVerify([join(dir, 'edited.json'), pdfPath, '--key', key.verifier_key]);
    expect(tampered.code).toBe(1);
    expect(tampered.out).toContain('FAIL inclusion');

    // Another key with the same name: the checkpoint and the seal do not verify.
    const other = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(12);
    const wrongKey = await signetVerify([certPath, pdfPath, '--key', formatVerifierKey(key.origin, other)]);
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.out).toContain('FAIL checkpoint');

    // Usage errors are not verdicts.
    expect((await signetVerify([certPath, pdfPath])).code).toBe(2);
    expect((await signetVerify([certPath, join(dir, 'missing.pdf'), '--key', key.verifier_key])).code).toBe(2);
  });

  it('answers the same 404 for the proof of an unknown reference and of a wrong prefix, and 400 for bad input', async () => {
    const wrong = await get(`/api/ledger/proof/${ref}?hash=ffffffffffffffff`);
    const unknown = await get('/api/ledger/proof/XYZ-TX-00000001?hash=0123456789abcdef');
    expect(wrong.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(await wrong.json()).toEqual(await unknown.json());
    for (const [path, detail] of [
      [`/api/ledger/proof/${ref}`, /hash/],
      [`/api/ledger/proof/${ref}?hash=xyz`, /hash/],
      ['/api/ledger/proof/not-a-ref?hash=0123456789abcdef', /reference/],
      ['/api/ledger/consistency', /from/],
      ['/api/ledger/consistency?from=0', /from/],
      ['/api/ledger/consistency?from=abc', /from/],
      ['/api/ledger/consistency?from=3&to=2', /to/],
      ['/api/ledger/consistency?from=1&to=99999999', /to/],
    ] as [string, RegExp][]) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      expect(((await res.json()) as { detail: string }).detail, path).toMatch(detail);
    }
  });

  it('publishes signed checkpoints that stay consistent as the log grows', async () => {
    const key = parseVerifierKey((await json<{ verifier_key: string }>('/api/ledger/public-key')).verifier_key);
    const before = await json<{ tree_size: number; root_hash: string; checkpoint: string }>('/api/ledger/checkpoint');
    expect(verifyCheckpoint(before.checkpoint, key)).toMatchObject({ size: before.tree_size });
    const text = await (await get('/api/ledger/checkpoint', { headers: { accept: 'text/plain' } })).text();
    expect(text.startsWith(`${key.name}\n`)).toBe(true);

    const more = Array.from(
      { length: 5 },
      () => [reference(), createHash('sha256').update(randomBytes(8)).digest('hex')] as const,
    );
    for (const [r, h] of more) await publishVerified(bus, r, h);
    for (const [r, h] of more) await eventually(async () => (await get(`/api/verify/${r}/${h.slice(0, 16)}`)).status === 200);
    const after = await json<{ tree_size: number; root_hash: string; checkpoint: string }>('/api/ledger/checkpoint');
    expect(after.tree_size).toBe(before.tree_size + 5);
    expect(verifyCheckpoint(after.checkpoint, key)?.size).toBe(after.tree_size);

    const c = await json<{ from: number; to: number; from_root: string; to_root: string; proof: string[] }>(
      `/api/ledger/consistency?from=${before.tree_size}&to=${after.tree_size}`,
    );
    expect(c.from_root).toBe(before.root_hash);
    expect(c.to_root).toBe(after.root_hash);
    const b = (s: string) => Buffer.from(s, 'base64');
    expect(verifyConsistency(c.from, c.to, b(before.root_hash), b(after.root_hash), c.proof.map(b))).toBe(true);
    // A forged old root does not pass.
    expect(verifyConsistency(c.from, c.to, randomBytes(32), b(after.root_hash), c.proof.map(b))).toBe(false);
    const latest = await json<{ to: number }>(`/api/ledger/consistency?from=1`);
    expect(latest.to).toBe(after.tree_size);
  });

  it('serves the /verify page with a strict CSP and no external assets', async () => {
    const res = await get('/verify');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const html = await res.text();
    expect(html).not.toMatch(/(src|href)="https?:/);
    expect(html).toContain('id="ref"');
    // No inline script or style: the built page's script and style are files under /assets.
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>|<style/);
    const script = /<script[^>]*\ssrc="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    expect((await get(script!)).headers.get('content-type')).toMatch(/javascript/);
  });

  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  it.skipIf(!existsSync(chromium))(
    'lets a person drop the PDF on /verify and see every check pass, or the document fail',
    async () => {
      const { chromium: pw } = await import('playwright-core');
      const browser = await pw.launch({ executablePath: chromium, args: ['--no-sandbox'] });
      try {
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
        await page.goto(`${stack.gatewayUrl}/verify`);
        await page.fill('#ref', ref);
        await page.setInputFiles('#pdf', { name: 'document.pdf', mimeType: 'application/pdf', buffer: pdf });
        await page.waitForFunction(
          () =>
            /^(Verified|Not verified)/.test(
              (globalThis as unknown as PageGlobal).document.getElementById('result')?.textContent ?? '',
            ),
          null,
          { timeout: 15_000 },
        );
        expect(await page.textContent('#result')).toBe(`Verified: ${ref}`);
        expect(await page.inputValue('#hash')).toBe(prefix);
        const checks = await page.$$eval('#checks li', (lis) => lis.map((li) => `${li.className} ${li.textContent}`));
        expect(checks.some((c) => c.startsWith('ok') && c.includes('full SHA-256 is the certified'))).toBe(true);
        expect(checks.some((c) => c.startsWith('ok') && c.includes('inclusion proof'))).toBe(true);
        expect(checks.filter((c) => c.startsWith('bad'))).toEqual([]);
        // Chromium has Ed25519 in WebCrypto: the signatures are checked in the page, not skipped.
        expect(checks.some((c) => c.startsWith('ok') && c.includes('checkpoint signed by the log key'))).toBe(true);
        expect(checks.some((c) => c.startsWith('ok') && c.includes('ledger seal is the log key'))).toBe(true);

        // The same reference with a PDF that differs in one byte: the prefix no longer matches.
        const changed = Buffer.from(pdf);
        changed[200] = changed[200]! ^ 0x80;
        await page.setInputFiles('#pdf', { name: 'changed.pdf', mimeType: 'application/pdf', buffer: changed });
        await page.waitForFunction(
          () =>
            ((globalThis as unknown as PageGlobal).document.getElementById('result')?.textContent ?? '').startsWith(
              'Not verified',
            ),
          null,
          { timeout: 15_000 },
        );
        expect(errors.filter((e) => !/404/.test(e))).toEqual([]);
      } finally {
        await browser.close();
      }
    },
  );
});
