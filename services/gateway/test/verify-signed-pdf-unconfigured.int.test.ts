import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServices } from '../../../test/harness/services.js';
import { tinyPdf } from '../../../test/fixtures/ceremony-media.js';

/**
 * A gateway without VERIFY_TRUST_ROOTS cannot judge a seal: POST /api/verify/signed-pdf answers 404 with
 * a detail that says so (not 503, which would invite retries of something that will never work), without
 * reading the body to its end, and the rest of /api/verify is unaffected.
 */
describe('POST /api/verify/signed-pdf on a gateway without trusted roots (real gateway)', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  const ip = () => `10.79.${randomBytes(1)[0]! % 250}.${(randomBytes(1)[0]! % 250) + 1}`;

  beforeAll(async () => {
    stack = await startServices(['gateway']);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('answers 404 "not configured" for a PDF, with JSON and no retry hint', async () => {
    const res = await fetch(`${stack.gatewayUrl}/api/verify/signed-pdf`, {
      method: 'POST',
      headers: { 'content-type': 'application/pdf', 'x-forwarded-for': ip() },
      body: new Uint8Array(tinyPdf('not sealed')),
    });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('retry-after')).toBeNull();
    expect(((await res.json()) as { detail: string }).detail).toMatch(/not configured/);
  });

  it('answers the same 404 at once for a large body still arriving, and stays up for the next call', async () => {
    // 8 MB sent slowly in 64 kB pieces: the answer must not wait for the whole body.
    const piece = new Uint8Array(64 * 1024);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(c) {
        if (sent >= 128) return c.close();
        sent++;
        await new Promise((r) => setTimeout(r, 20));
        c.enqueue(piece);
      },
    });
    const res = await fetch(`${stack.gatewayUrl}/api/verify/signed-pdf`, {
      method: 'POST',
      headers: { 'content-type': 'application/pdf', 'x-forwarded-for': ip() },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(404);
    expect(sent).toBeLessThan(128);
    await res.body?.cancel();
    const again = await fetch(`${stack.gatewayUrl}/api/verify/signed-pdf`, {
      method: 'POST',
      headers: { 'content-type': 'application/pdf', 'x-forwarded-for': ip() },
      body: new Uint8Array(tinyPdf('again')),
    });
    expect(again.status).toBe(404);
  });
});
