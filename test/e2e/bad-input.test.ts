import { randomBytes, randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngPhoto, tinyPdf } from '../fixtures/documents.js';
import type { Account } from '../harness/accounts.js';
import { startServices } from '../harness/services.js';
import { createTransaction, send, senderAccount, type CreatedTx } from '../support/ceremony-helpers.js';

const suffix = randomBytes(3).toString('hex');
const BUCKETS = {
  BUCKET_DOCUMENTS: `bad-docs-${suffix}`,
  BUCKET_REFERENCES: `bad-refs-${suffix}`,
  BUCKET_CAPTURES: `bad-caps-${suffix}`,
};
/** Generous: a request that never gets an answer fails here instead of at the test timeout. */
const REQUEST_TIMEOUT_MS = 30_000;

/** A multipart body written byte for byte, so a part header can hold what a form encoder would refuse. */
function rawMultipart(parts: { header: string; data: Buffer | string }[], close = true) {
  const boundary = `----bad${randomBytes(6).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n${p.header}\r\n\r\n`, 'latin1'), Buffer.from(p.data), Buffer.from('\r\n'));
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, data: Buffer.concat(chunks) };
}

// Item 2 of issue #16: bad input is a 400 at once, never a 5xx or a request left unanswered.
describe('bad input through the gateway (real identity, billing, transaction, ceremony, MinIO, FerretDB, NATS)', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  let tx: CreatedTx;
  const ip = () => ({ 'x-forwarded-for': `10.77.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}` });
  const api = (method: string, path: string, init: Parameters<typeof send>[3] = {}) =>
    send(stack.gatewayUrl, method, path, { ...init, headers: { ...ip(), ...init.headers } });
  const raw = (method: string, path: string, body: { contentType: string; data: Buffer }, headers: Record<string, string> = {}) =>
    fetch(`${stack.gatewayUrl}${path}`, {
      method,
      headers: { 'content-type': body.contentType, ...ip(), ...headers },
      body: new Uint8Array(body.data),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  const used = async () => (await api('POST', '/api/auth/me', { apiKey: acct.apiKey })).body.monthly_used as number;
  const listed = async () => (await api('GET', '/api/transactions', { apiKey: acct.apiKey })).body as unknown[];

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'gateway'], { env: BUCKETS });
    acct = await senderAccount(stack.gatewayUrl);
    tx = await createTransaction(stack.gatewayUrl, acct, 'Ada Lovelace', stack.env.TRANSACTION_ADDR);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('a path parameter that does not decode is 400 with a detail, on every route that has one', async () => {
    // As curl sends it: %ff is not UTF-8, so the parameter cannot be decoded.
    const paths: [string, string, Record<string, string>][] = [
      ['GET', '/api/sign/%ff/summary', {}],
      ['POST', '/api/sign/%ff/consent', {}],
      ['GET', '/api/verify/%ff/0123456789abcdef', {}],
      ['GET', '/api/transactions/%ff', { 'x-api-key': acct.apiKey }],
      ['POST', '/api/transactions/%E0%A4%A/cancel', { 'x-api-key': acct.apiKey }],
    ];
    for (const [method, path, headers] of paths) {
      const r = await api(method, path, { headers });
      expect(r.status, `${method} ${path}: ${r.text}`).toBe(400);
      expect(typeof r.body.detail, `${method} ${path}`).toBe('string');
    }
  });

  it('a capture whose part name holds a control character is answered 400 at once', async () => {
    const body = rawMultipart([
      { header: 'Content-Disposition: form-data; name="nonce"', data: 'n' },
      {
        header: 'Content-Disposition: form-data; name="vi\x01deo"; filename="v.webm"\r\nContent-Type: video/webm',
        data: randomBytes(2048),
      },
      {
        header: 'Content-Disposition: form-data; name="frame"; filename="f.jpg"\r\nContent-Type: image/jpeg',
        data: randomBytes(512),
      },
    ]);
    const res = await raw('POST', `/api/sign/${tx.token}/capture`, body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/multipart/);
    // The same part first in the body, before the nonce.
    const first = rawMultipart([{ header: 'Content-Disposition: form-data; name="\x7fnonce"', data: 'n' }]);
    const again = await raw('POST', `/api/sign/${tx.token}/capture`, first);
    expect(again.status).toBe(400);
  });

  it('the same malformed part on the creation route is 400 and stores nothing', async () => {
    const before = { used: await used(), listed: (await listed()).length };
    const body = rawMultipart([
      { header: 'Content-Disposition: form-data; name="signer_name"', data: 'Ada' },
      { header: 'Content-Disposition: form-data; name="signer_email"', data: 'ada@example.com' },
      {
        header: 'Content-Disposition: form-data; name="docu\x01ment"; filename="c.pdf"\r\nContent-Type: application/pdf',
        data: tinyPdf(randomUUID()),
      },
    ]);
    const res = await raw('POST', '/api/transactions', body, { 'x-api-key': acct.apiKey });
    expect(res.status).toBe(400);
    expect({ used: await used(), listed: (await listed()).length }).toEqual(before);
  });

  it('a creation whose multipart body ends early is 400 and stores nothing', async () => {
    const before = { used: await used(), listed: (await listed()).length };
    // Both files arrive, then the body stops before the closing boundary.
    const body = rawMultipart(
      [
        { header: 'Content-Disposition: form-data; name="signer_name"', data: 'Ada Lovelace' },
        { header: 'Content-Disposition: form-data; name="signer_email"', data: `ada-${suffix}@example.com` },
        {
          header: 'Content-Disposition: form-data; name="document"; filename="c.pdf"\r\nContent-Type: application/pdf',
          data: tinyPdf(randomUUID()),
        },
        {
          header: 'Content-Disposition: form-data; name="reference"; filename="f.png"\r\nContent-Type: image/png',
          data: pngPhoto(),
        },
      ],
      false,
    );
    const res = await raw('POST', '/api/transactions', body, { 'x-api-key': acct.apiKey });
    expect(res.status).toBe(400);
    expect(typeof ((await res.json()) as { detail: string }).detail).toBe('string');
    expect({ used: await used(), listed: (await listed()).length }).toEqual(before);
  });

  it('a creation whose connection ends before its declared length stores nothing', async () => {
    const before = { used: await used(), listed: (await listed()).length };
    const body = rawMultipart([
      { header: 'Content-Disposition: form-data; name="signer_name"', data: 'Ada Lovelace' },
      { header: 'Content-Disposition: form-data; name="signer_email"', data: `ada2-${suffix}@example.com` },
      {
        header: 'Content-Disposition: form-data; name="document"; filename="c.pdf"\r\nContent-Type: application/pdf',
        data: tinyPdf(randomUUID()),
      },
      {
        header: 'Content-Disposition: form-data; name="reference"; filename="f.png"\r\nContent-Type: image/png',
        data: pngPhoto(),
      },
    ]);
    const url = new URL(stack.gatewayUrl);
    const sent = body.data.subarray(0, body.data.length - 200);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(
          `POST /api/transactions HTTP/1.1\r\nHost: ${url.host}\r\nX-API-Key: ${acct.apiKey}\r\nContent-Type: ${body.contentType}\r\n` +
            `Content-Length: ${body.data.length}\r\n\r\n`,
        );
        socket.end(sent); // the rest of the declared body never comes
      });
      socket.on('error', () => resolve());
      socket.on('close', () => resolve());
      socket.setTimeout(REQUEST_TIMEOUT_MS, () => reject(new Error('the gateway kept the cut connection open')));
      socket.resume();
    });
    expect({ used: await used(), listed: (await listed()).length }).toEqual(before);
  });

  it('authenticated and signing responses are never stored by a cache', async () => {
    const auth = { apiKey: acct.apiKey };
    const reads: [string, string, Parameters<typeof send>[3]][] = [
      ['GET', '/api/transactions', auth],
      ['GET', `/api/transactions/${tx.id}`, auth],
      ['GET', '/api/transactions/export.csv', auth],
      ['POST', '/api/auth/me', auth],
      ['GET', '/api/transactions/999999999', auth], // 404 of an authenticated route
      ['GET', '/api/transactions', {}], // 401 of an authenticated route
      ['GET', `/api/sign/${tx.token}/summary`, {}],
      ['GET', `/api/sign/${'A'.repeat(43)}/summary`, {}], // 404 of a signing route
      ['POST', `/api/sign/${tx.token}/consent`, { json: {} }], // 400 of a signing route
    ];
    for (const [method, path, init] of reads) {
      const r = await api(method, path, init);
      expect(r.status, `${method} ${path}`).toBeLessThan(500);
      expect(r.headers.get('cache-control'), `${method} ${path} → ${r.status}`).toMatch(/\bno-store\b/);
    }
  });
});
