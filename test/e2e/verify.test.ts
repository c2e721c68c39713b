import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBus, publishEvent, type Bus } from '@signet/kit';
import { events, eventsV1 } from '@signet/proto';
import { eventually, infra, startServices } from '../harness/services.js';

describe('GET /api/verify/{label}/{hash} through gateway → ledger → MongoDB', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let bus: Bus;
  beforeAll(async () => {
    stack = await startServices(['ledger', 'gateway']);
    bus = await connectBus(infra().NATS_URL, 'test');
  });
  afterAll(async () => {
    await bus?.nc.drain();
    await stack?.stop();
  });

  const get = (path: string) => fetch(`${stack.gatewayUrl}${path}`);

  it('answers 404 with a detail for an unknown certificate', async () => {
    const res = await get('/api/verify/XYZ-TX-00000001/0123456789abcdef');
    expect(res.status).toBe(404);
    const body = (await res.json()) as { detail: string };
    expect(body.detail).toMatch(/no certificate/);
  });

  it.each([
    ['a malformed label', '/api/verify/not-a-reference/0123456789abcdef', /label/],
    ['a hash shorter than 16', '/api/verify/XYZ-TX-00000001/0123456789abcde', /hash/],
    ['a hash that is not hex', '/api/verify/XYZ-TX-00000001/0123456789abcdeg', /hash/],
    ['a hash longer than 16', '/api/verify/XYZ-TX-00000001/0123456789abcdef0', /hash/],
  ])('answers 400 for %s', async (_name, path, detail) => {
    const res = await get(path);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toMatch(detail);
  });

  /** Issues a certificate for `sha` through the ledger's consumer, as the transaction service does. */
  async function issue(reference: string, sha: string) {
    const eventId = randomUUID();
    await publishEvent(bus, events.transactionVerified, {
      eventId,
      payload: eventsV1.TransactionVerified.encode(
        eventsV1.TransactionVerified.fromPartial({
          eventId,
          occurredAt: new Date().toISOString(),
          transactionId: 7,
          reference,
          documentSha256: sha,
          issuerName: 'Acme Ltd',
          attestationType: 'signature',
          ownerId: 'u1',
          signers: [
            {
              name: 'Grace Hopper',
              email: 'grace@example.com',
              verificationMode: 'biometric',
              assurance: 'live',
              videoSha256: '',
              frameSha256: '',
              referenceSha256: '',
              verifiedAt: '2026-11-25T10:00:00.000Z',
            },
          ],
        }),
      ).finish(),
    });
  }
  const newReference = () => `E2E-TX-${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

  it('verifies an issued certificate, and answers the same 404 for a wrong prefix', async () => {
    const reference = newReference();
    const sha = 'c0ffee'.padEnd(64, '1');
    await issue(reference, sha);
    const body = await eventually(async () => {
      const res = await get(`/api/verify/${reference}/${sha.slice(0, 16)}`);
      return res.status === 200 ? ((await res.json()) as Record<string, unknown>) : undefined;
    });
    expect(body).toMatchObject({
      valid: true,
      reference,
      signer_name: 'Grace Hopper',
      issuer_name: 'Acme Ltd',
      verified_at: '2026-11-25T10:00:00.000Z',
      document_sha256_prefix: sha.slice(0, 16),
      verification_mode: 'biometric',
    });
    const wrong = await get(`/api/verify/${reference}/ffffffffffffffff`);
    expect(wrong.status).toBe(404);
    const unknown = await get('/api/verify/XYZ-TX-00000001/0123456789abcdef');
    expect(await wrong.json()).toEqual(await unknown.json());
  });

  it('states what the certificate proves: each signer’s assurance with its sentence, and the weakest signer’s for the whole', async () => {
    const reference = newReference();
    const sha = 'a55e7'.padEnd(64, '4');
    const eventId = randomUUID();
    const signer = (name: string, assurance: string, checks: string[]) => ({
      name,
      email: `${name.toLowerCase()}@example.com`,
      verificationMode: 'biometric',
      assurance,
      checks,
      videoSha256: '',
      frameSha256: '',
      referenceSha256: '',
      verifiedAt: '2026-11-28T10:00:00.000Z',
    });
    await publishEvent(bus, events.transactionVerified, {
      eventId,
      payload: eventsV1.TransactionVerified.encode(
        eventsV1.TransactionVerified.fromPartial({
          eventId,
          occurredAt: new Date().toISOString(),
          transactionId: 8,
          reference,
          documentSha256: sha,
          issuerName: 'Acme Ltd',
          attestationType: 'signature',
          ownerId: 'u1',
          signers: [
            // as a transaction service from before the level named WebAuthn sends it: live with the webauthn check
            signer('Ada', 'live', ['liveness', 'face_match', 'webauthn']),
            signer('Grace', 'live+webauthn', ['liveness', 'face_match', 'webauthn']),
            signer('Edsger', 'recorded', ['liveness', 'face_match']),
          ],
        }),
      ).finish(),
    });
    const body = await eventually(async () => {
      const res = await get(`/api/verify/${reference}/${sha.slice(0, 16)}`);
      return res.status === 200 ? ((await res.json()) as Record<string, unknown>) : undefined;
    });
    const meaning = {
      recorded: 'A recording that matched the prompts, possibly produced before they were shown.',
      live: /^A recording produced in real time after each prompt was revealed; it does not rule out real-time synthetic video injected through a virtual camera\.$/,
      webauthn:
        /real time after each prompt was revealed, and a WebAuthn authenticator on the signer's device confirmed the same session; it does not rule out real-time synthetic video/,
    };
    expect(body).toMatchObject({ valid: true, log: 'live', assurance: 'recorded', assurance_meaning: meaning.recorded });
    expect(body.signers).toEqual([
      { name: 'Ada', role: 'signer', assurance: 'live+webauthn', assurance_meaning: expect.stringMatching(meaning.webauthn) },
      { name: 'Grace', role: 'signer', assurance: 'live+webauthn', assurance_meaning: expect.stringMatching(meaning.webauthn) },
      { name: 'Edsger', role: 'signer', assurance: 'recorded', assurance_meaning: meaning.recorded },
    ]);
    // The evidence seals each signer's level and its sentence in the certificate itself.
    const bundle = await get(`/api/ledger/proof/${reference}?hash=${sha.slice(0, 16)}`);
    const cert = ((await bundle.json()) as { certificate: { signers: { assurance: string; assurance_meaning: string }[] } })
      .certificate;
    expect(cert.signers.map((s) => s.assurance)).toEqual(['live+webauthn', 'live+webauthn', 'recorded']);
    expect(cert.signers.map((s) => s.assurance_meaning)).toEqual(
      (body.signers as { assurance_meaning: string }[]).map((s) => s.assurance_meaning),
    );

    // A certificate of one live signer proves live as a whole.
    const one = newReference();
    const sha1 = 'a55e8'.padEnd(64, '5');
    await issue(one, sha1);
    const single = await eventually(async () => {
      const res = await get(`/api/verify/${one}/${sha1.slice(0, 16)}`);
      return res.status === 200 ? ((await res.json()) as Record<string, unknown>) : undefined;
    });
    expect(single).toMatchObject({
      assurance: 'live',
      assurance_meaning: expect.stringMatching(meaning.live),
      signers: [{ name: 'Grace Hopper', assurance: 'live' }],
    });
  });

  it('verifies by the full 64-character hash, compared whole: a changed last character is the same 404 as a wrong prefix', async () => {
    const reference = newReference();
    const sha = 'feed'.padEnd(64, '2');
    await issue(reference, sha);
    // sealed once the 16-character form answers; that form is unchanged
    const short = await eventually(async () => {
      const res = await get(`/api/verify/${reference}/${sha.slice(0, 16)}`);
      return res.status === 200 ? ((await res.json()) as Record<string, unknown>) : undefined;
    });
    expect(short).toMatchObject({ valid: true, reference, document_sha256_prefix: sha.slice(0, 16) });

    for (const full of [sha, sha.toUpperCase()]) {
      const res = await get(`/api/verify/${reference}/${full}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(short);
    }

    const changed = sha.slice(0, 63) + '3';
    const wrongFull = await get(`/api/verify/${reference}/${changed}`);
    expect(wrongFull.status).toBe(404);
    const wrongPrefix = await get(`/api/verify/${reference}/ffffffffffffffff`);
    expect(wrongPrefix.status).toBe(404);
    expect(await wrongFull.json()).toEqual(await wrongPrefix.json());

    // the evidence bundle takes the full hash the same way
    const bundle = await get(`/api/ledger/proof/${reference}?hash=${sha}`);
    expect(bundle.status).toBe(200);
    expect(((await bundle.json()) as { certificate: { document_sha256: string } }).certificate.document_sha256).toBe(sha);
    expect((await get(`/api/ledger/proof/${reference}?hash=${changed}`)).status).toBe(404);
    expect((await get(`/api/ledger/proof/${reference}?hash=${sha.slice(0, 40)}`)).status).toBe(400);
    expect((await get(`/api/verify/${reference}/${sha}0`)).status).toBe(400);
  });

  it('exposes /readyz, /healthz and /metrics with request histograms', async () => {
    expect((await get('/readyz')).status).toBe(200);
    expect((await get('/healthz')).status).toBe(200);
    const metrics = await (await fetch(`http://127.0.0.1:${stack.opsPorts.gateway}/metrics`)).text();
    expect(metrics).toContain('process_cpu_seconds_total');
    expect(metrics).toMatch(/signet_http_request_duration_seconds_bucket\{[^}]*route="\/api\/verify\/:label\/:hash"/);
    const ledgerMetrics = await (await fetch(`http://127.0.0.1:${stack.opsPorts.ledger}/metrics`)).text();
    expect(ledgerMetrics).toMatch(
      /signet_grpc_server_handling_seconds_bucket\{[^}]*method="signet.ledger.v1.LedgerService\/VerifyCertificate"/,
    );
  });
});
